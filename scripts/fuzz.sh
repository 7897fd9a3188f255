#!/usr/bin/env bash
# Runs every fuzz target in build/asan for N seconds over its corpus (fuzz/corpus/<name>/),
# replaying every saved crash input first. Fails on any finding.
set -euo pipefail
seconds=${1:-20}
root="$(cd "$(dirname "$0")/.." && pwd)"
status=0
for bin in "$root"/build/asan/*_fuzz; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  corpus="$root/fuzz/corpus/${name%_fuzz}"
  mkdir -p "$root/build/fuzz-work/$name"
  args=()
  [ -d "$corpus" ] && args+=("$corpus")
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
