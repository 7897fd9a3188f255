# The installable package: libshoal.so, the public headers, CMake and pkg-config files.
#
# Why a shared library: a consumer links one file and gets every layer, and the system
# libraries the engine uses (zstd, snappy, lz4, brotli, zlib, roaring, xxhash, curl) are recorded as
# the library's own dependencies (DT_NEEDED), so neither shoalConfig.cmake nor shoal.pc has to
# list them, and a consumer's link line cannot get their order wrong. The layer libraries are
# built position-independent for this (and for the Python module), so the objects are shared
# with the static layer libraries the tests link: nothing is compiled twice.
#
# `make install PREFIX=dir` (cmake --install) writes:
#   lib/libshoal.so*  include/shoal/*.h  bin/shoal
#   lib/cmake/shoal/shoalConfig.cmake, shoalConfigVersion.cmake, shoalTargets*.cmake
#   lib/pkgconfig/shoal.pc

set(SHOAL_ENGINE_LAYERS base io columnar parquet expr delta scan txn table sql)
set(shoal_objects)
foreach(layer ${SHOAL_ENGINE_LAYERS})
  list(APPEND shoal_objects $<TARGET_OBJECTS:shoal_${layer}>)
endforeach()
add_library(shoal_shared SHARED ${shoal_objects})
# The layer libraries bring their include directories and system libraries; their objects are
# already in, so the linker takes nothing more from their archives.
target_link_libraries(shoal_shared PRIVATE shoal_sql)
target_include_directories(shoal_shared INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                                                  $<INSTALL_INTERFACE:include>)
target_compile_features(shoal_shared INTERFACE cxx_std_20)
set_target_properties(shoal_shared PROPERTIES
  OUTPUT_NAME shoal EXPORT_NAME shoal
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  LINK_OPTIONS "-Wl,--no-undefined")
add_library(shoal::shoal ALIAS shoal_shared)

include(CMakePackageConfigHelpers)
install(TARGETS shoal_shared EXPORT shoalTargets LIBRARY DESTINATION lib)
# Only include/shoal/: the public headers include each other and the standard library alone.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/shoal DESTINATION include FILES_MATCHING PATTERN "*.h")
if(TARGET shoal)
  install(TARGETS shoal RUNTIME DESTINATION bin)
endif()
install(EXPORT shoalTargets NAMESPACE shoal:: DESTINATION lib/cmake/shoal)
file(WRITE ${CMAKE_BINARY_DIR}/package/shoalConfig.cmake
     "# find_package(shoal): the imported target shoal::shoal (libshoal.so and include/shoal).\n"
     "include(\"\${CMAKE_CURRENT_LIST_DIR}/shoalTargets.cmake\")\n")
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/shoalConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/shoalConfig.cmake
              ${CMAKE_BINARY_DIR}/package/shoalConfigVersion.cmake
        DESTINATION lib/cmake/shoal)
# shoal.pc finds its prefix from its own location, so the installed tree can be moved.
configure_file(${CMAKE_SOURCE_DIR}/cmake/shoal.pc.in ${CMAKE_BINARY_DIR}/package/shoal.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/shoal.pc DESTINATION lib/pkgconfig)

# The example consumer (examples/cpp) built against an installation in install-test/.
if(TARGET shoal)
  add_test(NAME install/find_package_consumer
           COMMAND bash ${CMAKE_SOURCE_DIR}/cmake/install_consumer_test.sh ${CMAKE_BINARY_DIR}
                   ${CMAKE_SOURCE_DIR}/examples/cpp ${CMAKE_BINARY_DIR}/install-test)
  set_tests_properties(install/find_package_consumer PROPERTIES LABELS unit TIMEOUT 300)
endif()
