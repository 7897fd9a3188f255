#!/usr/bin/env bash
# Runs the long reliability campaigns (issue #9) and prints one summary table: the history
# checker at large size under both isolation levels, the SIGKILL crash test, every fuzz target,
# and the fault-injection sweeps. Exits 1 when any campaign reports an anomaly or fails.
# doc/reliability.md describes each campaign and what "anomaly" means for it.
#
# Needs build/release (make release) and, for fuzzing, build/asan built with clang (make fuzz).
# Knobs (environment):
#   HISTORY_TXNS=500    transactions per history process (SHOAL_HISTORY_TXNS)
#   HISTORY_PROCS=4     history processes (SHOAL_HISTORY_PROCS)
#   CRASH_ROUNDS=100    crash-test rounds (SHOAL_CRASH_ROUNDS)
#   FUZZ_SECONDS=600    seconds per fuzz target (0 skips fuzzing)
#   FAULT_REPEAT=1      repetitions of the fault sweeps (they are deterministic: 1 is enough);
#                       they run with SHOAL_FAULT_SWEEP=full (every fault point, not CI's sample)
#   SOAK_SECONDS=600    length of the mixed-load soak (SHOAL_SOAK_SECONDS)
#   SQLFUZZ_SECONDS=600 seconds of differential SQL fuzzing against DuckDB (0 skips it;
#                       test/differential/sqlfuzz/README.md)
#   CAMPAIGNS="history crash fuzz fault sqlfuzz soak"   the campaigns to run
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build/release}"
history_txns=${HISTORY_TXNS:-500}
history_procs=${HISTORY_PROCS:-4}
crash_rounds=${CRASH_ROUNDS:-100}
fuzz_seconds=${FUZZ_SECONDS:-600}
fault_repeat=${FAULT_REPEAT:-1}
soak_seconds=${SOAK_SECONDS:-600}
sqlfuzz_seconds=${SQLFUZZ_SECONDS:-600}
campaigns=${CAMPAIGNS:-history crash fuzz fault sqlfuzz soak}
logs="$root/build/reliability"
mkdir -p "$logs"

rows=()
status=0
# row CAMPAIGN RUNS ANOMALIES SECONDS
row() {
  rows+=("$(printf '%-40s %14s %10s %9s' "$1" "$2" "$3" "$4")")
  if [ "$3" != "0" ]; then status=1; fi
}
now() { date +%s; }

cli_test="$build/shoal_cli_test"

run_history() {  # $1 = WriteSerializable | Serializable
  local level=$1 log="$logs/history-$1.log" start end rc
  start=$(now)
  SHOAL_HISTORY_TXNS=$history_txns SHOAL_HISTORY_PROCS=$history_procs SHOAL_HISTORY_DIR="$logs" \
    "$cli_test" --gtest_filter="HistoryE2E.${level}HistoryHasNoAnomaly" > "$log" 2>&1
  rc=$?
  end=$(now)
  local txns anomalies
  txns=$(grep -oE '[0-9]+ transactions' "$log" | head -1 | cut -d' ' -f1)
  anomalies=$(grep -oE 'anomalies=[0-9]+' "$log" | head -1 | cut -d= -f2)
  [ -n "$anomalies" ] || anomalies="error"
  if [ $rc -ne 0 ] && [ "$anomalies" = "0" ]; then anomalies="fail"; fi
  row "history checker $level" "${txns:-?} txns" "$anomalies" $((end - start))
  [ $rc -eq 0 ] || { echo "history $level failed, see $log"; grep -E '^\[ history|Failure|^  [A-Za-z0-9-]+:' "$log" | head -20; }
}

run_crash() {
  local log="$logs/crash.log" start end rc
  start=$(now)
  SHOAL_CRASH_ROUNDS=$crash_rounds "$cli_test" --gtest_filter='CrashE2E.*' > "$log" 2>&1
  rc=$?
  end=$(now)
  local failures
  failures=$(grep -c 'Failure' "$log")
  [ $rc -eq 0 ] || [ "$failures" != "0" ] || failures="fail"
  grep -q '^crash test:' "$log" || failures="not run"  # e.g. the binary lacks CrashE2E
  row "crash test (SIGKILL writers)" "$crash_rounds rounds" "$failures" $((end - start))
  [ $rc -eq 0 ] || { echo "crash test failed, see $log"; grep -A5 Failure "$log" | head -20; }
}

run_fuzz() {
  if [ "$fuzz_seconds" = "0" ]; then return; fi
  if ! ls "$root"/build/asan/*_fuzz > /dev/null 2>&1; then
    row "fuzz (build/asan missing: make fuzz)" "0" "skipped" 0
    status=1
    return
  fi
  local log="$logs/fuzz.log" start end
  start=$(now)
  bash "$root/scripts/fuzz.sh" "$fuzz_seconds" > "$log" 2>&1
  end=$(now)
  for bin in "$root"/build/asan/*_fuzz; do
    local name execs found
    name=$(basename "$bin")
    execs=$(grep -oE 'Done [0-9]+ runs' "$root/build/fuzz-work/$name.log" 2>/dev/null | tail -1 | cut -d' ' -f2)
    [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$root/build/fuzz-work/$name.log" 2>/dev/null | tail -1 | tr -d '#')
    found=0
    grep -q "fuzz: $name FOUND A PROBLEM" "$log" && found=1
    row "fuzz $name" "${execs:-?} execs" "$found" "$fuzz_seconds"
  done
  echo "fuzzing took $((end - start)) s in all; log $log"
}

run_fault() {
  local bin
  for bin in "$build"/shoal_*_test; do
    [ -x "$bin" ] || continue
    local tests
    tests=$("$bin" --gtest_list_tests --gtest_filter='*Fault*' 2>/dev/null | grep -c '^  ')
    [ "$tests" -gt 0 ] || continue
    local name log start end rc failed points
    name=$(basename "$bin")
    log="$logs/fault-$name.log"
    start=$(now)
    # SHOAL_FAULT_SWEEP=full: every operation of every statement sweep is a fault point (CI
    # samples them); each sweep prints "[ faults   ] NAME: N operations, P fault points injected".
    SHOAL_FAULT_SWEEP=full "$bin" --gtest_filter='*Fault*' --gtest_repeat="$fault_repeat" > "$log" 2>&1
    rc=$?
    end=$(now)
    failed=$(grep -c '^\[  FAILED  \].*(' "$log")
    [ $rc -eq 0 ] || [ "$failed" != "0" ] || failed="fail"
    points=$(sed -n 's/.* \([0-9][0-9]*\) fault points injected.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    if [ "$points" -gt 0 ]; then
      row "fault sweeps ($name *Fault*)" "$points points" "$failed" $((end - start))
    else
      row "fault sweeps ($name *Fault*)" "$((tests * fault_repeat)) tests" "$failed" $((end - start))
    fi
  done
}

run_soak() {
  local log="$logs/soak.log" start end rc failures
  start=$(now)
  SHOAL_SOAK_SECONDS=$soak_seconds "$cli_test" --gtest_filter='SoakE2E.MixedLoad' > "$log" 2>&1
  rc=$?
  end=$(now)
  failures=$(grep -c 'Failure' "$log")
  [ $rc -eq 0 ] || [ "$failures" != "0" ] || failures="fail"
  local commits
  commits=$(sed -n 's/.*commits: \([0-9]*\).*/\1/p' "$log" | head -1)
  row "mixed-load soak (${soak_seconds} s)" "${commits:-?} commits" "$failures" $((end - start))
  grep '^\[ soak' "$log"
  [ $rc -eq 0 ] || { echo "soak failed, see $log"; grep -A5 Failure "$log" | head -20; }
}

run_sqlfuzz() {
  if [ "$sqlfuzz_seconds" = "0" ]; then return; fi
  local log="$logs/sqlfuzz.log" start end rc queries found
  start=$(now)
  PYTHONPATH="$root/build/python" PYTHONDONTWRITEBYTECODE=1 TZ=UTC /usr/bin/python3 \
    "$root/test/differential/fuzz_sql.py" --seconds "$sqlfuzz_seconds" --threads 1 > "$log" 2>&1
  rc=$?
  end=$(now)
  queries=$(sed -n 's/^sqlfuzz: \([0-9][0-9]*\) queries.*/\1/p' "$log" | tail -1)
  found=$(sed -n 's/^sqlfuzz: .* \([0-9][0-9]*\) findings.*/\1/p' "$log" | tail -1)
  [ -n "$found" ] || found="error"
  if [ $rc -eq 77 ]; then found="skipped"; fi
  row "sqlfuzz (vs DuckDB, TLP, optimizer off)" "${queries:-0} queries" "$found" $((end - start))
  [ $rc -eq 0 ] || { echo "sqlfuzz found problems, see $log"; grep -A3 '^=== sqlfuzz finding' "$log" | head -40; }
}

[ -x "$cli_test" ] || { echo "missing $cli_test: make release"; exit 1; }
for c in $campaigns; do
  case $c in
    history) run_history WriteSerializable; run_history Serializable ;;
    crash) run_crash ;;
    fuzz) run_fuzz ;;
    fault) run_fault ;;
    soak) run_soak ;;
    sqlfuzz) run_sqlfuzz ;;
    *) echo "unknown campaign $c"; exit 2 ;;
  esac
done

echo
printf '%-40s %14s %10s %9s\n' campaign runs/executions anomalies seconds
for r in "${rows[@]}"; do echo "$r"; done
echo "logs: $logs"
exit $status
