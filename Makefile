# Front door for building and testing shoal (DuckDB's convention). See README.md.
.PHONY: all release debug asan tsan fuzz test test-debug asan-test tsan-test fuzz-smoke reliability soak demo bench format tidy deps clean python install

JOBS ?= $(shell nproc)
# ccache keys on paths relative to the checkout, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
CMAKE_GEN := -G Ninja
DEPS_STAMP := build/.deps-ok

all: release

$(DEPS_STAMP): scripts/install-deps.sh $(wildcard tools/duckdb/*.mjs)
	@mkdir -p build
	@bash scripts/install-deps.sh

deps:
	@bash scripts/install-deps.sh

# build/<kind>/ is configured once, then rebuilt incrementally.
define configure
	@if [ ! -f build/$(1)/build.ninja ]; then cmake -S . -B build/$(1) $(CMAKE_GEN) $(2); fi
endef

release: $(DEPS_STAMP)
	$(call configure,release,-DCMAKE_BUILD_TYPE=Release)
	cmake --build build/release -j $(JOBS)

# The Python module into build/python/shoal/ (PYTHONPATH=build/python; doc/python.md).
python: $(DEPS_STAMP)
	$(call configure,release,-DCMAKE_BUILD_TYPE=Release)
	cmake -DSHOAL_PYTHON=ON build/release >/dev/null
	cmake --build build/release -j $(JOBS) --target shoal_python

# libshoal.so, include/shoal/, bin/shoal, lib/cmake/shoal/ and lib/pkgconfig/shoal.pc into
# $(PREFIX) (doc/embedding.md).
PREFIX ?= /usr/local
install: release
	cmake --install build/release --prefix $(PREFIX)

debug: $(DEPS_STAMP)
	$(call configure,debug,-DCMAKE_BUILD_TYPE=Debug)
	cmake --build build/debug -j $(JOBS)

# ASan+UBSan at -O1 with line tables only (-g1), as TSan below: ASan's recommended level, and a
# cold build (CI's case after a change low in the layers) is much faster than -O2 -g.
ASAN_CONFIG := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DSHOAL_SANITIZE=ON -DSHOAL_BENCH=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
asan: $(DEPS_STAMP)
	$(call configure,asan,$(ASAN_CONFIG))
	cmake --build build/asan -j $(JOBS)

# TSan at -O1 with line tables only (-g1): TSan's recommended level, and the build is much
# faster than -O2 -g; the reports keep file:line stacks.
TSAN_CONFIG := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DSHOAL_TSAN=ON -DSHOAL_BENCH=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
tsan: $(DEPS_STAMP)
	$(call configure,tsan,$(TSAN_CONFIG))
	cmake --build build/tsan -j $(JOBS)

# Fuzz targets are built in the sanitizer build (clang: ASan+UBSan+libFuzzer coverage).
fuzz: asan

# Runs every unit test and every test/sql script (release build).
test: release
	cd build/release && ctest --output-on-failure -j $(JOBS) --timeout 600

test-debug: debug
	cd build/debug && ctest --output-on-failure -j $(JOBS) --timeout 900

# The test suite under ASan+UBSan.
asan-test: asan
	cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS) --timeout 900

# Concurrency tests under TSan.
# Builds only the test binaries labelled `concurrency` (CMakeLists.txt): the layers in
# SHOAL_CONCURRENCY_LAYERS and every src/<layer>/*_mt_test.cc binary (shoal_<layer>_mt_test).
TSAN_TARGETS ?= shoal_delta_test shoal_txn_test shoal_scan_test shoal_table_mt_test shoal_sql_mt_test
tsan-test: $(DEPS_STAMP)
	$(call configure,tsan,$(TSAN_CONFIG))
	cmake --build build/tsan -j $(JOBS) --target $(TSAN_TARGETS)
	cd build/tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) --timeout 900 -L concurrency

# A short run of every fuzz target over its seed corpus (part of CI's sanitizer step).
FUZZ_SECONDS ?= 20
fuzz-smoke: fuzz
	@bash scripts/fuzz.sh $(FUZZ_SECONDS)

# Long reliability campaigns (history checker, crash test, fuzzing, fault sweeps, soak): doc/reliability.md
reliability: release fuzz
	@bash scripts/reliability.sh

# The mixed-load soak alone (also part of reliability): SOAK_SECONDS (default 600) of 8 writer,
# 4 reader and one maintenance process on one table; doc/reliability.md, "Mixed-load soak".
soak: release
	@CAMPAIGNS=soak bash scripts/reliability.sh

demo: release
	@bash scripts/demo.sh

bench: release
	@bash bench/run.sh

# TPC-H in shoal vs DuckDB (doc/tpch.md): generates build/tpch/sf$(SF), loads it, runs the 22
# queries in both engines and compares the answers. Builds only what it needs.
.PHONY: tpch
SF ?= 1
tpch: $(DEPS_STAMP)
	@JOBS=$(JOBS) bash bench/tpch/run.sh $(SF)

format:
	clang-format -i $$(git ls-files '*.h' '*.cc' '*.cpp')

tidy: release
	clang-tidy -p build/release $$(git ls-files 'src/*.cc') --quiet

clean:
	rm -rf build
