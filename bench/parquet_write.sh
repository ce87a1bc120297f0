#!/usr/bin/env bash
# Times `floe convert` against DuckDB and ClickHouse (single-threaded peers) writing Parquet, as
# whole processes: csv-to-parquet (events.csv) and lineitem-to-parquet. floe has no Parquet reader
# into batches in this branch, so parquet-to-parquet is not run and floe converts lineitem.csv
# where the peers read lineitem.parquet (floe's side includes CSV parsing; the ratio says so).
# Usage: bench/parquet_write.sh [ROWS=10000000] [RUNS=3]; FLOE=path/to/floe, SHARED=../shared.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rows=${1:-${ROWS:-10000000}}
runs=${2:-${RUNS:-3}}
shared=${SHARED:-$here/../shared}
floe=${FLOE:-$here/build/dev/floe}
work=${WORK:-$(mktemp -d)}
inputs="$work/inputs-$rows"
[ -f "$inputs/events.csv" ] || "$shared/bench/make-inputs" "$inputs" "$rows" >/dev/null

# Runs a command RUNS times; prints the best wall seconds and the peak RSS (MB) of that run.
measure() {
  local best="" best_mem=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
    local wall mem
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$work/time.txt")
    mem=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2/1024}' "$work/time.txt")
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; best_mem=$mem; fi
  done
  echo "$best $best_mem"
}

printf '%-22s %-11s %9s %9s %12s %s\n' task engine seconds peak_MB bytes vs_faster_peer
for task in csv-to-parquet lineitem-to-parquet; do
  declare -A secs mems sizes
  for engine in duckdb clickhouse; do
    out="$work/out-$engine-$task"; mkdir -p "$out"
    read -r secs[$engine] mems[$engine] < <(measure "$shared/bench/peer-task" "$engine" "$task" "$inputs" "$out")
    sizes[$engine]=$(stat -c %s "$out"/*.parquet)
  done
  case $task in
    csv-to-parquet) in_file="$inputs/events.csv" ;;
    lineitem-to-parquet) in_file="$inputs/lineitem.csv" ;;
  esac
  read -r secs[floe] mems[floe] < <(measure "$floe" convert "$in_file" "$work/floe-$task.parquet" --codec zstd)
  sizes[floe]=$(stat -c %s "$work/floe-$task.parquet")
  faster=$(awk "BEGIN{print (${secs[duckdb]} < ${secs[clickhouse]}) ? ${secs[duckdb]} : ${secs[clickhouse]}}")
  for engine in floe duckdb clickhouse; do
    ratio=$(awk "BEGIN{printf \"%.2fx\", ${secs[$engine]} / $faster}")
    printf '%-22s %-11s %9s %9s %12s %s\n' "$task" "$engine" "${secs[$engine]}" "${mems[$engine]}" "${sizes[$engine]}" "$ratio"
  done
  unset secs mems sizes
done
