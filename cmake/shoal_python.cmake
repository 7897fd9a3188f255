# The Python module `shoal` (python/): pybind11 over the in-tree engine, for Debian's
# /usr/bin/python3 (another python3 may come first on PATH). Built by default when pybind11 is
# found, also in the clang ASan+UBSan build: there the extension carries the instrumentation and
# its tests run Python with the shared ASan runtime preloaded (LD_PRELOAD; doc/reliability.md).
# Not under TSan (an uninstrumented interpreter calling in makes its reports noise).
#
# Output: the package directory build/python/shoal/ for the release build (the Makefile's
# `make python`), <build dir>/python/shoal/ for other builds; PYTHONPATH=<that>/.. imports it.
set(shoal_python_default OFF)
set(shoal_python_asan_runtime "")
if(SHOAL_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                  OUTPUT_VARIABLE shoal_python_asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${shoal_python_asan_runtime}")
    set(shoal_python_asan_runtime "")
  endif()
endif()
if(NOT SHOAL_TSAN AND (NOT SHOAL_SANITIZE OR shoal_python_asan_runtime) AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python for the shoal module")
  set(PYBIND11_FINDPYTHON ON)
  find_package(Python 3.11 COMPONENTS Interpreter Development.Module QUIET)
  if(Python_FOUND)
    find_package(pybind11 CONFIG QUIET)
    if(pybind11_FOUND)
      set(shoal_python_default ON)
    endif()
  endif()
endif()
option(SHOAL_PYTHON "Build the Python module (needs pybind11)" ${shoal_python_default})

if(CMAKE_BINARY_DIR STREQUAL "${CMAKE_SOURCE_DIR}/build/release")
  set(SHOAL_PYTHON_DIR ${CMAKE_SOURCE_DIR}/build/python)
else()
  set(SHOAL_PYTHON_DIR ${CMAKE_BINARY_DIR}/python)
endif()

file(GLOB shoal_python_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/src/*.cc)
if(SHOAL_PYTHON AND shoal_python_srcs)
  if(NOT pybind11_FOUND)
    find_package(pybind11 CONFIG REQUIRED)
  endif()
  # NO_EXTRAS: no LTO (its serial-compilation warning; the engine is not LTO-built) and no strip.
  pybind11_add_module(shoal_python MODULE NO_EXTRAS ${shoal_python_srcs})
  target_link_libraries(shoal_python PRIVATE shoal_sql)
  # GCC 12's -Wuse-after-free false positive in columnar/buffer.h's Append (see shoal_tpch).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(shoal_python PRIVATE -Wno-use-after-free)
  endif()
  set_target_properties(shoal_python PROPERTIES OUTPUT_NAME _shoal
                        LIBRARY_OUTPUT_DIRECTORY ${SHOAL_PYTHON_DIR}/shoal)
  # The pure-Python part of the package, copied next to the extension whenever a file changes
  # (a dependency of shoal_python, so `make python` refreshes it without relinking).
  file(GLOB shoal_python_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/shoal/*.py)
  set(shoal_python_copies)
  foreach(f ${shoal_python_files})
    get_filename_component(n ${f} NAME)
    add_custom_command(OUTPUT ${SHOAL_PYTHON_DIR}/shoal/${n}
                       COMMAND ${CMAKE_COMMAND} -E copy_if_different ${f} ${SHOAL_PYTHON_DIR}/shoal/${n}
                       DEPENDS ${f})
    list(APPEND shoal_python_copies ${SHOAL_PYTHON_DIR}/shoal/${n})
  endforeach()
  add_custom_target(shoal_python_package DEPENDS ${shoal_python_copies})
  add_dependencies(shoal_python shoal_python_package)
endif()

# python/tests/test_*.py, one CTest test per file. They run whether or not the module was
# built: without it they skip, or fail when CI=true (python/tests/conftest.py). In the ASan build
# the interpreter gets the runtime preloaded, leak checks off (CPython frees little at exit) and
# the plain allocator (PYTHONMALLOC=malloc), so ASan sees every object's memory.
set(shoal_python_test_env "PYTHONPATH=${SHOAL_PYTHON_DIR};SHOAL_SOURCE_DIR=${CMAKE_SOURCE_DIR};PYTHONDONTWRITEBYTECODE=1;TZ=UTC")
if(SHOAL_SANITIZE AND shoal_python_asan_runtime)
  list(APPEND shoal_python_test_env "LD_PRELOAD=${shoal_python_asan_runtime}" "PYTHONMALLOC=malloc" "SHOAL_SANITIZED=1"
       "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1" "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()
if(EXISTS /usr/bin/python3 AND NOT SHOAL_TSAN AND (NOT SHOAL_SANITIZE OR shoal_python_asan_runtime))
  file(GLOB shoal_python_tests CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/tests/test_*.py)
  if(SHOAL_SANITIZE)
    # Dask's worker processes would each start an instrumented interpreter: slow, and the engine
    # API they call (include/shoal/distributed.h) runs under ASan in distributed_test.cc.
    list(FILTER shoal_python_tests EXCLUDE REGEX "test_dask\\.py$")
  endif()
  foreach(t ${shoal_python_tests})
    get_filename_component(n ${t} NAME_WE)
    add_test(NAME python/${n}
             COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider ${t}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/python/tests)
    set_tests_properties(python/${n} PROPERTIES LABELS unit TIMEOUT 600 ENVIRONMENT "${shoal_python_test_env}")
  endforeach()
endif()
if(EXISTS /usr/bin/python3 AND NOT SHOAL_SANITIZE AND NOT SHOAL_TSAN)
  # The differential SQL fuzzer against DuckDB (test/differential/sqlfuzz/README.md), a fixed
  # small set of seeds; exit 77 (skipped) without the module or DuckDB, a failure under CI=true.
  add_test(NAME differential/sqlfuzz
           COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/test/differential/fuzz_sql.py --seeds 2-4,6 --queries 100)
  set_tests_properties(differential/sqlfuzz PROPERTIES LABELS unit TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "PYTHONPATH=${SHOAL_PYTHON_DIR};PYTHONDONTWRITEBYTECODE=1;TZ=UTC")
  add_test(NAME differential/sqlfuzz_unit
           COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider sqlfuzz/test_sqlfuzz.py
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/test/differential)
  set_tests_properties(differential/sqlfuzz_unit PROPERTIES LABELS unit TIMEOUT 120
                       ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
endif()
