#!/usr/bin/env bash
# Times `floe append` against ClickHouse (single-threaded, its IcebergLocal engine) ingesting
# events.parquet into a new Iceberg table, as whole processes on the same input (the issue's
# ingest-iceberg task). Prints the best of RUNS wall times, CPU seconds, peak RSS, the size of the
# table's data files and the ratio to ClickHouse (below 1: floe is faster).
# Usage: bench/ingest_iceberg.sh [ROWS=10000000] [RUNS=3]; FLOE=path/to/floe, SHARED=../shared,
# INPUTS=a make-inputs directory to reuse.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"
bench_setup 10000000 events.parquet "$@"

data_bytes() { find "$1" -path '*/data/*' -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}'; }

printf '%-14s %-11s %9s %7s %9s %12s %s\n' task engine seconds cpu_s peak_MB data_bytes vs_clickhouse
declare -A secs mems cpus sizes
out="$work/clickhouse"
read -r secs[clickhouse] mems[clickhouse] cpus[clickhouse] < <(measure "$shared/bench/peer-task" clickhouse ingest-iceberg "$inputs" "$out")
sizes[clickhouse]=$(data_bytes "$out/events_ice")

table="$work/floe/warehouse/db/events_ice"
reset_floe() { rm -rf "$work/floe"; }
before_each=reset_floe
read -r secs[floe] mems[floe] cpus[floe] < <(measure "$floe" append "$table" "$inputs/events.parquet" --property write.parquet.compression-codec=zstd)
before_each=
sizes[floe]=$(data_bytes "$table")
for engine in floe clickhouse; do
  ratio=$(awk "BEGIN{printf \"%.2fx\", ${secs[$engine]} / ${secs[clickhouse]}}")
  printf '%-14s %-11s %9s %7s %9s %12s %s\n' ingest-iceberg "$engine" "${secs[$engine]}" "${cpus[$engine]}" "${mems[$engine]}" "${sizes[$engine]}" "$ratio"
done
