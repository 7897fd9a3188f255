#!/usr/bin/env bash
# Runs every fuzz target in build/asan for N seconds over its corpus (fuzz/corpus/<name>/),
# replaying every saved crash input first. Fails on any finding.
set -euo pipefail
seconds=${1:-20}
root="$(cd "$(dirname "$0")/.." && pwd)"
testdata=${SHOAL_TESTDATA:-$root/../shared/testdata}
seeds="$root/build/fuzz-work/seeds"

# Seeds taken in place from the shared test data (never copied into the repo): small Parquet
# files, their footers, Delta checkpoints and deletion vectors. Absent test data: no extra seeds.
prepare_seeds() {
  rm -rf "$seeds"
  mkdir -p "$seeds/parquet_file" "$seeds/parquet_metadata" "$seeds/delta_checkpoint" "$seeds/deletion_vector"
  [ -d "$testdata" ] || return 0
  local i=0 f len size
  while IFS= read -r f; do
    i=$((i + 1))
    ln -sf "$f" "$seeds/parquet_file/$i.parquet"
    # Footer: the metadata length is the 4 bytes (little-endian) before the closing magic.
    len=$(tail -c 8 "$f" | head -c 4 | od -An -tu4 | tr -d ' ')
    if [ -n "$len" ] && [ "$len" -gt 0 ] && [ "$len" -lt "$(stat -c %s "$f")" ]; then
      { printf '\x00'; tail -c $((len + 8)) "$f" | head -c "$len"; } > "$seeds/parquet_metadata/$i"
    fi
  done < <(find "$testdata/parquet-testing/data" "$testdata/parquet-testing/bad_data" -name '*.parquet' -size -256k 2>/dev/null | sort)
  i=0
  while IFS= read -r f; do
    i=$((i + 1))
    ln -sf "$f" "$seeds/delta_checkpoint/$i.parquet"
  done < <(find "$testdata/delta-golden" -name '*checkpoint*.parquet' -size -256k 2>/dev/null | sort)
  i=0
  while IFS= read -r f; do
    i=$((i + 1))
    # DV file: a version byte, then per vector a big-endian size, the bitmap and a CRC.
    size=$(od -An -tu1 -j1 -N4 "$f" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}')
    [ -n "$size" ] && [ "$size" -gt 0 ] && [ "$size" -lt 1048576 ] && tail -c +6 "$f" | head -c "$size" > "$seeds/deletion_vector/$i"
  done < <(find "$testdata/delta-golden" -name 'deletion_vector_*.bin' 2>/dev/null | sort | head -50)
  return 0
}
prepare_seeds

status=0
for bin in "$root"/build/asan/*_fuzz; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  corpus="$root/fuzz/corpus/${name%_fuzz}"
  mkdir -p "$root/build/fuzz-work/$name"
  args=()
  [ -d "$corpus" ] && args+=("$corpus")
  extra="$seeds/${name%_fuzz}"
  [ -d "$extra" ] && [ -n "$(ls -A "$extra")" ] && args+=("$extra")
  dict="$root/fuzz/${name%_fuzz}.dict"
  [ -f "$dict" ] && args=("-dict=$dict" "${args[@]}")
  echo "fuzz: $name for ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$root/build/fuzz-work/$name/" "$root/build/fuzz-work/$name" "${args[@]}" \
       > "$root/build/fuzz-work/$name.log" 2>&1; then
    echo "fuzz: $name FOUND A PROBLEM"; tail -40 "$root/build/fuzz-work/$name.log"; status=1
  else
    grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$root/build/fuzz-work/$name.log" | tail -1 || true
  fi
done
exit $status
