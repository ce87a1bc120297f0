#!/usr/bin/env bash
# Kafka into Iceberg, side by side with kcat, on librdkafka's mock cluster
# (../shared/peers/kafka-broker): make-inputs' events (events.jsonl, one JSON record each) in
# TOPICS topics of 4 partitions, produced zstd-compressed by kcat, one slice per partition.
#
# 1. Throughput: `kcat -C` reading every topic to /dev/null, and `floe run` copying them into an
#    Iceberg table (bounded at the latest offsets, checkpoints every second). Prints the best of
#    RUNS wall times, CPU seconds, peak RSS, records/s per wall second and per CPU second (per
#    core), and floe's rates as shares of kcat's. Both counts are checked: kcat reads, and the
#    table holds, exactly ROWS records.
# 2. Latency: an unbounded `floe run` (1 s checkpoints) while kcat produces RATE records/s for
#    LATENCY_SECONDS seconds; per record, the commit time of the first snapshot whose offsets cover it
#    (the table's snapshot summaries) less its Kafka CreateTime (as kcat reads it back): p50,
#    p99 and max.
#
# The mock cluster keeps at most 5 MiB of record batches per partition and deletes the oldest
# beyond that; the script fails when a partition no longer starts at offset 0.
# Usage: bench/kafka_ingest.sh [ROWS=1000000] [RUNS=3]; TOPICS=4, RATE=50000, LATENCY_SECONDS=10
# (RATE * LATENCY_SECONDS at most about 800k: the live topic has 4 partitions), FLOE=path/to/floe,
# SHARED=../shared, INPUTS=a make-inputs directory to reuse.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"
bench_setup 1000000 events.jsonl "$@"
topics=${TOPICS:-4}
rate=${RATE:-50000}
seconds=${LATENCY_SECONDS:-10}
partitions=4

read -r bootstrap broker_pid < <("$shared/peers/kafka-broker" 1)
trap 'kill -KILL "$broker_pid" 2>/dev/null || true' EXIT

# Line i of the input goes to slice i % (topics * partitions).
names=()
for ((t = 0; t < topics; t++)); do names+=("events-$t"); done
awk -v n=$((topics * partitions)) -v rows="$rows" -v dir="$work" \
  'NR <= rows { print > (dir "/slice-" (NR - 1) % n) }' "$inputs/events.jsonl"
for ((s = 0; s < topics * partitions; s++)); do
  kcat -P -b "$bootstrap" -t "events-$((s / partitions))" -p $((s % partitions)) -z zstd \
    <"$work/slice-$s"
  rm "$work/slice-$s"
done
# Fails unless every partition of the topic still starts at offset 0.
check_kept() {
  for ((p = 0; p < partitions; p++)); do
    first=$(kcat -C -b "$bootstrap" -t "$1" -p "$p" -o beginning -c 1 -e -q -f '%o\n')
    if [ "${first:-0}" != 0 ]; then
      echo "kafka_ingest: the mock cluster deleted offsets 0..$((first - 1)) of $1 [$p]" >&2
      exit 1
    fi
  done
}
held=0
for name in "${names[@]}"; do
  check_kept "$name"
  held=$((held + $(kcat -C -b "$bootstrap" -t "$name" -o beginning -e -q -f '\n' | wc -l)))
done
[ "$held" = "$rows" ] || { echo "kafka_ingest: the topics hold $held records, not $rows" >&2; exit 1; }

columns='id BIGINT, ts TIMESTAMP(6), category STRING, `value` DOUBLE, payload STRING'
catalog="CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='$work/lake');"
cat >"$work/kafka.sql" <<SQL
$catalog
CREATE DATABASE IF NOT EXISTS lake.db;
CREATE TABLE IF NOT EXISTS lake.db.events ($columns);
CREATE TABLE default_catalog.default_database.k ($columns) WITH (
  'connector'='kafka', 'topic'='$(IFS=';'; echo "${names[*]}")', 'properties.bootstrap.servers'='$bootstrap',
  'scan.startup.mode'='earliest-offset', 'scan.bounded.mode'='latest-offset', 'format'='json');
SET 'execution.checkpointing.interval' = '1s';
INSERT INTO lake.db.events SELECT * FROM default_catalog.default_database.k;
SQL
reset_floe() { rm -rf "$work/lake" "$work/cp" "$work/wh"; }
count_table() {
  "$floe" sql --warehouse "$work/wh" -e "$catalog SET 'execution.runtime-mode' = 'batch'; SET 'sql-client.execution.result-mode' = 'jsonl'; SELECT count(*) AS n FROM lake.db.$1;" </dev/null |
    grep -o '"n": *[0-9]*' | grep -o '[0-9]*$' || true
}
# kcat reads the topics one after the other, each with all its partitions.
kcat_all=(bash -c 'for name in "${@:2}"; do kcat -C -b "$1" -t "$name" -o beginning -e -q; done' kcat "$bootstrap" "${names[@]}")

echo "$rows records in $topics topics of $partitions partitions; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %8s %7s %8s %14s %16s %8s %8s\n' engine wall_s cpu_s peak_MB records_per_s records_per_cpu_s vs_kcat cpu_vs
declare -A secs mems cpus
read -r secs[kcat] mems[kcat] cpus[kcat] < <(measure "${kcat_all[@]}")
before_each=reset_floe
read -r secs[floe] mems[floe] cpus[floe] < <(measure "$floe" run "$work/kafka.sql" --warehouse "$work/wh" --checkpoint-dir "$work/cp")
before_each=
landed=$(count_table events)
[ "$landed" = "$rows" ] || { echo "kafka_ingest: the table holds $landed rows, not $rows" >&2; exit 1; }
for engine in kcat floe; do
  printf '%-6s %8s %7s %8s %14.0f %16.0f %7.0f%% %7.0f%%\n' "$engine" "${secs[$engine]}" "${cpus[$engine]}" "${mems[$engine]}" \
    "$(awk "BEGIN{print $rows / ${secs[$engine]}}")" "$(awk "BEGIN{print $rows / ${cpus[$engine]}}")" \
    "$(awk "BEGIN{print 100 * ${secs[kcat]} / ${secs[$engine]}}")" "$(awk "BEGIN{print 100 * ${cpus[kcat]} / ${cpus[$engine]}}")"
done

# Latency: a topic of its own, produced at a steady rate while an unbounded job commits it.
reset_floe
cat >"$work/latency.sql" <<SQL
$catalog
CREATE DATABASE IF NOT EXISTS lake.db;
CREATE TABLE IF NOT EXISTS lake.db.live ($columns);
CREATE TABLE default_catalog.default_database.live ($columns) WITH (
  'connector'='kafka', 'topic'='live', 'properties.bootstrap.servers'='$bootstrap',
  'scan.startup.mode'='earliest-offset', 'scan.topic-partition-discovery.interval'='100ms', 'format'='json');
SET 'execution.checkpointing.interval' = '1s';
INSERT INTO lake.db.live SELECT * FROM default_catalog.default_database.live;
SQL
live=$((rate * seconds))
# The topic exists before the job starts (kcat's metadata request creates it).
kcat -P -b "$bootstrap" -t live -p 0 </dev/null
"$floe" run "$work/latency.sql" --warehouse "$work/wh" --checkpoint-dir "$work/cp" >"$work/live.out" 2>&1 &
job=$!
sleep 3
python3 "$here/bench/kafka_pace.py" "$rate" "$seconds" <"$inputs/events.jsonl" |
  kcat -P -b "$bootstrap" -t live -z zstd -X linger.ms=5
check_kept live
for _ in $(seq 60); do
  [ "$(count_table live)" = "$live" ] && break
  sleep 1
done
kill "$job"; wait "$job" 2>/dev/null || true
landed=$(count_table live)
[ "$landed" = "$live" ] || { echo "kafka_ingest: the live table holds $landed rows, not $live" >&2; exit 1; }
kcat -C -b "$bootstrap" -t live -o beginning -e -q -f '%p %o %T\n' >"$work/produced.txt"
"$floe" sql --warehouse "$work/wh" -e "$catalog SET 'execution.runtime-mode' = 'batch'; SET 'sql-client.execution.result-mode' = 'jsonl'; SELECT CAST(committed_at AS STRING) AS at, summary['floe.source-position.default_catalog.default_database.live#1.0'] AS position FROM lake.db.live\$snapshots;" </dev/null |
  grep '^{' >"$work/commits.jsonl"
python3 "$here/bench/kafka_latency.py" "$work/produced.txt" "$work/commits.jsonl" "$rate"
