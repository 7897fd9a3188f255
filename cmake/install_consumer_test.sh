#!/usr/bin/env bash
# Installs the built tree into a fresh prefix, builds the example consumer (examples/cpp)
# against it with find_package(shoal), and also with pkg-config, runs both and checks their
# output. Uses the already built libshoal.so: nothing of shoal is recompiled.
#   install_consumer_test.sh BUILD_DIR EXAMPLE_DIR PREFIX
set -euo pipefail
build="$1" example="$2" prefix="$3"
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null

# Only the public headers, which include each other and the standard library alone.
for h in "$prefix"/include/shoal/*.h; do
  if grep -E '^#include "' "$h" | grep -vE '^#include "shoal/[a-z_]+\.h"' >/dev/null; then
    echo "FAIL: $h includes a non-public header"; exit 1
  fi
done
test -f "$prefix/lib/cmake/shoal/shoalConfig.cmake"
test -f "$prefix/lib/cmake/shoal/shoalConfigVersion.cmake"
test -f "$prefix/lib/pkgconfig/shoal.pc"

# README's C++ snippets are the example's files, verbatim.
readme="$example/../../README.md"
snippet() { awk -v lang="$1" '$0 == "```" lang {f = 1; next} /^```$/ {if (f) exit} f' "$readme"; }
snippet cmake | diff -u - "$example/CMakeLists.txt" || { echo "FAIL: README's cmake snippet differs"; exit 1; }
snippet cpp | diff -u - "$example/main.cc" || { echo "FAIL: README's cpp snippet differs"; exit 1; }

expected=$'kind\tn\ttotal\nclick\t2\t2.5\nview\t1\t1.5'
check() {
  local out
  out="$("$1" "$prefix/warehouse")"
  if [ "$(printf '%s' "$out" | head -3)" != "$expected" ]; then
    echo "FAIL: $1 printed:"; echo "$out"; exit 1
  fi
  printf '%s\n' "$out" | tail -1 | grep -q '^shoal ' || { echo "FAIL: no version line"; exit 1; }
}

# CMake consumer (CCACHE off: the example is tiny and ccache keys would be noise).
cmake -S "$example" -B "$prefix/example-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$prefix/example-build" >/dev/null
check "$prefix/example-build/shoal_example"

# pkg-config consumer.
flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs shoal)"
# shellcheck disable=SC2086
c++ -O1 -o "$prefix/example-pkgconfig" "$example/main.cc" $flags -Wl,-rpath,"$prefix/lib"
check "$prefix/example-pkgconfig"
echo "install test: OK ($prefix)"
