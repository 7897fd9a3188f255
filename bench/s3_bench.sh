#!/usr/bin/env bash
# Tables on S3 against local disk (issue #25), in one run: the scan benchmark's lineitem-like
# table (bench/scan_bench.sh's generator, fewer rows) written by shoal to a local warehouse and
# to the local S3 server (scripts/s3-server.sh), plus a LocalSorted copy with a checkpoint and a
# few commits after it. For each query it prints the median of 3 runs (each a fresh shell
# process, so every run loads the snapshot and opens the files as a first query would):
#   local_ms  the local warehouse
#   s3_ms     the S3 warehouse (a loopback server: no network latency)
#   lat_ms    the S3 warehouse with LATENCY_MS (20) injected before every request
# with the S3 requests per kind, bytes received and the dependent round trips (`--stats`), and
# PASS/MISS for the latency goal: lat_ms <= round_trips x LATENCY_MS + s3_ms. Then commit
# throughput: WRITERS (8) shell processes appending COMMITS (10) single-row INSERTs each to one
# table on S3: commits/s, statements that failed (aborts), and whether every commit landed once.
#
#   bench/s3_bench.sh                       # starts its own server (~15 s), 1M rows
#   SHOAL_S3_ENV=/tmp/s3/env bench/s3_bench.sh   # a running server's env file
#   ROWS=200000 bench/s3_bench.sh           # quick
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROWS=${ROWS:-1000000}
BUILD=${BUILD:-$ROOT/build/release}
THREADS=${THREADS:-2}
LATENCY_MS=${LATENCY_MS:-20}
WRITERS=${WRITERS:-8}
COMMITS=${COMMITS:-10}
SHOAL=$BUILD/shoal
[ -x "$SHOAL" ] || { echo "missing $SHOAL (cmake --build $BUILD --target shoal)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/shoal-s3-bench.XXXXXX)
ENV_FILE=${SHOAL_S3_ENV:-}
OWN_SERVER=""
cleanup() {
  [ -n "$OWN_SERVER" ] && bash "$ROOT/scripts/s3-server.sh" stop "$OWN_SERVER" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
if [ -z "$ENV_FILE" ]; then
  if ! command -v radosgw >/dev/null; then echo "skipped: no S3 server (scripts/install-deps.sh installs radosgw)"; exit 0; fi
  OWN_SERVER=$WORK/server
  bash "$ROOT/scripts/s3-server.sh" start "$OWN_SERVER" >/dev/null
  ENV_FILE=$OWN_SERVER/env
fi
field() { tr ' ' '\n' <"$ENV_FILE" | sed -n "s/^$1=//p"; }
export AWS_ENDPOINT_URL=$(field endpoint) AWS_ACCESS_KEY_ID=$(field access_key) AWS_SECRET_ACCESS_KEY=$(field secret_key)
S3WH=s3://$(field bucket)/bench-$$-$RANDOM
LOCALWH=$WORK/warehouse

. "$ROOT/bench/lineitem_gen.sh"

setup() {
  "$SHOAL" "$1" --threads "$THREADS" -c "CREATE TABLE li AS $GEN" \
    -c "CREATE TABLE li_sorted TBLPROPERTIES ('shoal.localSort.columns' = 'l_skey', 'delta.checkpointInterval' = '3') AS SELECT * FROM li" \
    -c "INSERT INTO li_sorted SELECT * FROM li LIMIT 10" -c "INSERT INTO li_sorted SELECT * FROM li LIMIT 10" \
    -c "INSERT INTO li_sorted SELECT * FROM li LIMIT 10" -c "INSERT INTO li_sorted SELECT * FROM li LIMIT 10" >/dev/null
}
t0=$SECONDS
setup "$LOCALWH"
setup "$S3WH"
echo "rows=$ROWS threads=$THREADS latency=${LATENCY_MS}ms  (setup ${SECONDS}s; median of 3 runs, each a fresh process; load: $(cut -d' ' -f1-3 /proc/loadavg))"

median3() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else print v[int((NR + 1) / 2)]}'; }
# run WAREHOUSE QUERY [ENV...] -> "median_elapsed_ms s3_stats_json_of_the_last_run"
run() {
  local wh=$1 q=$2 times=() err json=""
  shift 2
  for _ in 1 2 3; do
    err=$(env "$@" "$SHOAL" "$wh" --threads "$THREADS" --format csv --stats -c "$q" 2>&1 >/dev/null) || { echo "nan {}"; return; }
    times+=("$(sed -n 's/.*"elapsed_ms":\([0-9]*\).*/\1/p' <<<"$err" | tail -1)")
    json=$(sed -n 's/^s3_stats //p' <<<"$err" | tail -1)
  done
  echo "$(printf '%s\n' "${times[@]}" | median3) ${json:-{\}}"
}
num() { sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" <<<"$1" | head -1; }
kinds() {  # GET/GET_RANGE/HEAD/LIST requests of a stats line
  local req=${1#*\"requests\":\{}
  req=${req%%\}*}
  echo "$(num "$req" GET)/$(num "$req" GET_RANGE)/$(num "$req" HEAD)/$(num "$req" LIST)"
}

printf "%-13s %9s %9s %9s %8s %15s %10s %7s %s\n" query local_ms s3_ms lat_ms s3/loc G/GR/H/L kB_in rtrips goal
misses=0
while IFS='|' read -r name table query; do
  read -r local _ < <(run "$LOCALWH" "$query")
  read -r s3 _ < <(run "$S3WH" "$query")
  read -r lat json < <(run "$S3WH" "$query" SHOAL_S3_INJECT_LATENCY_MS="$LATENCY_MS")
  rt=$(num "$json" round_trips)
  bytes_in=${json#*\"bytes_in\":\{}
  bytes_in=${bytes_in%%\}*}
  kb=$(tr ',' '\n' <<<"$bytes_in" | sed 's/.*://' | awk '{s += $1} END {printf "%.0f", s / 1024}')
  budget=$(awk -v r="${rt:-0}" -v l="$LATENCY_MS" -v s="$s3" 'BEGIN { printf "%.0f", r * l + s }')
  if awk -v a="$lat" -v b="$budget" 'BEGIN { exit !(a == a + 0 && a <= b) }'; then goal="≤rt×lat+s3($budget):PASS"; else
    goal="≤rt×lat+s3($budget):MISS"; misses=$((misses + 1)); fi
  printf "%-13s %9s %9s %9s %8s %15s %10s %7s %s\n" "$name" "$local" "$s3" "$lat" \
    "$(awk -v a="$s3" -v b="$local" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')" \
    "$(kinds "$json")" "$kb" "${rt:-?}" "$goal"
done <<'EOF'
point|li|SELECT * FROM li WHERE l_skey = 'k0421'
point_sorted|li_sorted|SELECT * FROM li_sorted WHERE l_skey = 'k0421'
point_narrow|li_sorted|SELECT l_orderkey, l_comment FROM li_sorted WHERE l_skey = 'k0421' AND l_orderkey = 105
group_by|li|SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity) AS q, sum(l_extendedprice) AS p, min(l_shipdate) AS d FROM li GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus
full_scan|li|SELECT count(*), max(l_comment), sum(l_extendedprice) FROM li
EOF

# Commit throughput: WRITERS processes, COMMITS single-row INSERTs each, all at once.
"$SHOAL" "$S3WH" -c "CREATE TABLE log (writer INT, seq INT)" >/dev/null
start=$(date +%s.%N)
for w in $(seq 1 "$WRITERS"); do
  sql=""
  for i in $(seq 1 "$COMMITS"); do sql+="INSERT INTO log VALUES ($w, $i);"; done
  ("$SHOAL" "$S3WH" -c "$sql" >/dev/null 2>>"$WORK/writers.err" || echo "writer $w failed" >>"$WORK/writers.err") &
done
wait
end=$(date +%s.%N)
aborts=$(grep -c . "$WORK/writers.err" 2>/dev/null || true)
read -r rows distinct < <("$SHOAL" "$S3WH" --format csv -c "SELECT count(*), count(DISTINCT writer * 1000 + seq) FROM log" | tail -1 | tr ',' ' ')
versions=$("$SHOAL" "$S3WH" --format csv -c "DESCRIBE HISTORY log" 2>/dev/null | tail -n +2 | wc -l)
n=$((WRITERS * COMMITS))
lost=$((n - ${distinct:-0}))
dup=$((${rows:-0} - ${distinct:-0}))
echo
echo "commits on S3: $WRITERS writer processes x $COMMITS INSERTs: $(awk -v n=$n -v s="$start" -v e="$end" 'BEGIN { printf "%.1f commits/s (%.1f s)", n / (e - s), e - s }'), error lines (aborts) $aborts, lost $lost, duplicated $dup, history entries $versions (expected $((WRITERS * COMMITS + 1)))"
[ "$lost" = 0 ] && [ "$dup" = 0 ] || misses=$((misses + 1))
"$SHOAL" "$S3WH" -c "DROP TABLE li" -c "DROP TABLE li_sorted" -c "DROP TABLE log" >/dev/null 2>&1 || true
echo "goals missed: $misses"
