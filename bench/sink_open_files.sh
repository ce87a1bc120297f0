#!/usr/bin/env bash
# Peak RSS of one IcebergSink writer subtask writing ROWS rows over PARTITIONS partitions, with
# several max-open-files limits, for clustered input and for random input (bench/sink_open_files.cc).
# Random input uses ROWS/5 rows: below the partition count, the limit closes about one file per
# partition and batch, so the files (and the time to delete them) grow with the batches.
# Prints limit, input order, rows, wall seconds, peak MB and the number of data files written.
# MODE=upsert: the same through the delta writer (upsert on (id, p), 10% updates).
# Usage: bench/sink_open_files.sh [PARTITIONS=1000] [ROWS=1000000]; BIN=path/to/
# floe_bench_sink_open_files (default build/bench/bench/floe_bench_sink_open_files).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
partitions=${1:-1000}
rows=${2:-1000000}
bin=${BIN:-$here/build/bench/bench/floe_bench_sink_open_files}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=1
mode=${MODE:-append}
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"
printf '%-10s %-10s %8s %8s %8s %7s\n' max_open order rows seconds peak_MB files
run() {  # run ORDER ROWS LIMIT
  rm -rf "$work/t"
  files=$("$bin" "$work/t" "$partitions" "$2" "$3" "$1" "$mode")
  rm -rf "$work/t"
  read -r secs mem _ < <(measure "$bin" "$work/t" "$partitions" "$2" "$3" "$1" "$mode")
  rm -rf "$work/t"
  printf '%-10s %-10s %8s %8s %8s %7s\n' "$3" "$1" "$2" "$secs" "$mem" "${files% files}"
}
for limit in "$partitions" 100 10; do run clustered "$rows" "$limit"; done
for limit in "$partitions" 100; do run random $((rows / 5)) "$limit"; done
