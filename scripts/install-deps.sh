#!/usr/bin/env bash
# Installs shoal's build and test dependencies from Debian 12 packages. Idempotent: when
# everything is present it only checks and exits.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  clang libclang-rt-14-dev clang-format clang-tidy
  zlib1g-dev libzstd-dev libsnappy-dev liblz4-dev libbrotli-dev
  libroaring-dev libxxhash-dev nlohmann-json3-dev libedit-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  pybind11-dev python3-pybind11 python3-dev python3-numpy python3-pandas python3-pytest
  # shoal.dask (doc/dask.md) and its tests: Dask distributed.
  python3-dask python3-distributed
  libcurl4-openssl-dev
  # Regular expressions (expr: regexp_* and rlike) and the pseudo-terminal shell tests.
  libre2-dev python3-pexpect
  # A local S3 server for the object-storage tests (scripts/s3-server.sh): Ceph RADOS Gateway
  # with one monitor and one in-memory OSD; `ceph-common` (ceph, ceph-authtool, radosgw-admin)
  # and `ceph-base` (monmaptool) hold the tools that bootstrap it. curl signs the bucket creation.
  radosgw ceph-mon ceph-osd ceph-common ceph-base curl
)
# Node.js runs the DuckDB oracle; use the machine's own when present (it may not be Debian's).
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# DuckDB (oracle for tests and benchmarks) from npm, into the build folder, never into ../shared.
if [ "${SHOAL_SKIP_DUCKDB:-0}" != "1" ]; then
  root="$(cd "$(dirname "$0")/.." && pwd)"
  dir="$root/build/duckdb"
  if [ ! -d "$dir/node_modules/@duckdb/node-api" ]; then
    mkdir -p "$dir"
    cp "$root/tools/duckdb/package.json" "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error) || echo "install-deps: DuckDB from npm not installed (oracle tests will skip)"
  fi
  # The scripts are copied on every run, so one added to tools/duckdb reaches an existing install.
  cp "$root/tools/duckdb/"*.mjs "$dir/" 2>/dev/null || true
fi
touch "$(cd "$(dirname "$0")/.." && pwd)/build/.deps-ok" 2>/dev/null || true
