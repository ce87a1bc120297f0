#!/usr/bin/env bash
# Times `floe convert` against DuckDB and ClickHouse (single-threaded peers) writing Parquet with
# zstd, as whole processes and on the same inputs: csv-to-parquet (events.csv), parquet-to-parquet
# (events.parquet) and lineitem-to-parquet (lineitem.parquet). Prints the best of RUNS wall times,
# the peak RSS of that run, the output size and the ratio to the faster peer (below 1: floe is
# faster). Usage: bench/parquet_write.sh [ROWS=10000000] [RUNS=3] [TASKS...];
# FLOE=path/to/floe, SHARED=../shared, INPUTS=a make-inputs directory to reuse.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rows=${1:-${ROWS:-10000000}}
runs=${2:-${RUNS:-3}}
shared=${SHARED:-$here/../shared}
floe=${FLOE:-$here/build/release/floe}
work=${WORK:-$(mktemp -d)}
shift $(( $# > 2 ? 2 : $# ))
tasks=${*:-csv-to-parquet parquet-to-parquet lineitem-to-parquet}
inputs=${INPUTS:-$work/inputs-$rows}
[ -f "$inputs/lineitem.csv" ] || "$shared/bench/make-inputs" "$inputs" "$rows" >/dev/null

# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"

printf '%-22s %-11s %9s %7s %9s %12s %s\n' task engine seconds cpu_s peak_MB bytes vs_faster_peer
for task in $tasks; do
  declare -A secs mems sizes cpus
  for engine in duckdb clickhouse; do
    out="$work/out-$engine-$task"; mkdir -p "$out"
    read -r secs[$engine] mems[$engine] cpus[$engine] < <(measure "$shared/bench/peer-task" "$engine" "$task" "$inputs" "$out")
    sizes[$engine]=$(stat -c %s "$out"/*.parquet)
  done
  case $task in
    csv-to-parquet) in_file="$inputs/events.csv" ;;
    parquet-to-parquet) in_file="$inputs/events.parquet" ;;
    lineitem-to-parquet) in_file="$inputs/lineitem.parquet" ;;
  esac
  read -r secs[floe] mems[floe] cpus[floe] < <(measure "$floe" convert "$in_file" "$work/floe-$task.parquet" --codec zstd)
  sizes[floe]=$(stat -c %s "$work/floe-$task.parquet")
  faster=$(awk "BEGIN{print (${secs[duckdb]} < ${secs[clickhouse]}) ? ${secs[duckdb]} : ${secs[clickhouse]}}")
  for engine in floe duckdb clickhouse; do
    ratio=$(awk "BEGIN{printf \"%.2fx\", ${secs[$engine]} / $faster}")
    printf '%-22s %-11s %9s %7s %9s %12s %s\n' "$task" "$engine" "${secs[$engine]}" "${cpus[$engine]}" "${mems[$engine]}" "${sizes[$engine]}" "$ratio"
  done
  unset secs mems sizes cpus
done
