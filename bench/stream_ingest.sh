#!/usr/bin/env bash
# The streaming ingest benchmarks of issue 6, in one run: events rows from datagen and from
# events.parquet (file source) into a fresh Iceberg table with bench/stream_ingest.cc, in streaming
# mode with checkpoints every CHECKPOINT_MS (append; upsert with 10% updates), without checkpoints,
# and in batch mode; and `floe append` of the same events.parquet (the batch ingest of
# bench/ingest_iceberg.sh). The machine is shared, so the measure is CPU: rows per CPU second
# (user + system) is rows/s per core. Prints one line per case (latency: ms from a batch's creation
# at the source to the snapshot holding it, row-weighted mean and max; see stream_ingest.cc), then
# the ratio streaming append / batch ingest and the cost of checkpointing.
# Usage: bench/stream_ingest.sh [ROWS=1000000] [CHECKPOINT_MS=10000]; RUNS=best of that many
# runs of each job (least CPU; default 1), FLOE=path/to/floe,
# BIN=path/to/floe_bench_stream_ingest, SHARED=../shared, INPUTS=a make-inputs directory to reuse.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rows=${1:-${ROWS:-1000000}}
interval=${2:-${CHECKPOINT_MS:-10000}}
runs=${RUNS:-1}
shared=${SHARED:-$here/../shared}
floe=${FLOE:-$here/build/release/floe}
bin=${BIN:-$here/build/release/bench/floe_bench_stream_ingest}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=${INPUTS:-$work/inputs-$rows}
[ -f "$inputs/events.parquet" ] || "$shared/bench/make-inputs" "$inputs" "$rows" >/dev/null
events=$inputs/events.parquet

printf '%-28s %9s %7s %7s %11s %7s %5s %8s %8s\n' case rows wall_s cpu_s rows/cpu_s commits load lat_mean lat_max
declare -A rate
run() {  # run NAME SOURCE MODE INTERVAL [streaming|batch]: the run of RUNS with the least CPU
  local name=$1; shift
  local best="" line
  for _ in $(seq "$runs"); do
    rm -rf "$work/t"; mkdir -p "$work/t"
    line=$("$bin" "$work/t" "$@")
    rm -rf "$work/t"
    if [ -z "$best" ] || awk "BEGIN{exit !($(cut -d' ' -f3 <<<"$line") < $(cut -d' ' -f3 <<<"$best"))}"; then best=$line; fi
  done
  read -r n wall cpu per commits load lat_mean lat_max _ <<<"$best"
  rate[$name]=$per
  printf '%-28s %9s %7s %7s %11s %7s %5s %8s %8s\n' "$name" "$n" "$wall" "$cpu" "$per" "$commits" "$load" "$lat_mean" "$lat_max"
}

rm -rf "$work/append"
/usr/bin/time -f '%e %U %S' -o "$work/time.txt" "$floe" append "$work/append/wh/db/events" "$events" \
  --property write.parquet.compression-codec=zstd --property format-version=2 >/dev/null
read -r wall user sys < "$work/time.txt"
cpu=$(awk "BEGIN{printf \"%.3f\", $user + $sys}")
rate[append]=$(awk "BEGIN{printf \"%.0f\", $rows / $cpu}")
printf '%-28s %9s %7s %7s %11s %7s %5s %8s %8s\n' "file floe-append" "$rows" "$wall" "$cpu" "${rate[append]}" 1 "$(cut -d' ' -f1 /proc/loadavg)" - -
rm -rf "$work/append"

run "file batch-job" "file:$events" append 0 batch
run "file stream append ckpt" "file:$events" append "$interval"
run "file stream append no-ckpt" "file:$events" append 0
run "file stream upsert ckpt" "file:$events" upsert "$interval"
run "datagen batch-job" "datagen:$rows" append 0 batch
run "datagen stream append ckpt" "datagen:$rows" append "$interval"
run "datagen stream append no-ckpt" "datagen:$rows" append 0
run "datagen stream upsert ckpt" "datagen:$rows" upsert "$interval"

ratio() { awk "BEGIN{printf \"%.2f\", $1 / $2}"; }
echo "streaming append (file, ckpt) / floe append:      $(ratio "${rate[file stream append ckpt]}" "${rate[append]}")"
echo "streaming append (file, ckpt) / batch-mode job:   $(ratio "${rate[file stream append ckpt]}" "${rate[file batch-job]}")"
echo "checkpointing cost (file): rate with / without     $(ratio "${rate[file stream append ckpt]}" "${rate[file stream append no-ckpt]}")"
echo "checkpointing cost (datagen): rate with / without  $(ratio "${rate[datagen stream append ckpt]}" "${rate[datagen stream append no-ckpt]}")"
echo "upsert / append (datagen, ckpt):                   $(ratio "${rate[datagen stream upsert ckpt]}" "${rate[datagen stream append ckpt]}")"
