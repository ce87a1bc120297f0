#!/usr/bin/env bash
# Times a Kafka topic of the shared events (make-inputs' events.jsonl, one JSON record each) read
# by `kcat -C` to /dev/null and by `floe run` copying it into an Iceberg table (bounded at the
# latest offset, checkpoints every second), side by side on the same topic of librdkafka's mock
# cluster (../shared/peers/kafka-broker). Prints the best of RUNS wall times, CPU seconds, peak
# RSS, records/s and floe's rate as a share of kcat's.
# Usage: bench/kafka_ingest.sh [ROWS=1000000] [RUNS=3]; FLOE=path/to/floe, SHARED=../shared,
# INPUTS=a make-inputs directory to reuse.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"
bench_setup 1000000 events.jsonl "$@"

read -r bootstrap broker_pid < <("$shared/peers/kafka-broker" 1)
trap 'kill -KILL "$broker_pid" 2>/dev/null || true' EXIT
topic=events
kcat -P -b "$bootstrap" -t "$topic" -z none <"$inputs/events.jsonl"

cat >"$work/kafka.sql" <<SQL
CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='$work/lake');
CREATE DATABASE IF NOT EXISTS lake.db;
CREATE TABLE IF NOT EXISTS lake.db.events (id BIGINT, ts TIMESTAMP(6), category STRING, \`value\` DOUBLE, payload STRING);
CREATE TABLE default_catalog.default_database.k (id BIGINT, ts TIMESTAMP(6), category STRING, \`value\` DOUBLE, payload STRING) WITH (
  'connector'='kafka', 'topic'='$topic', 'properties.bootstrap.servers'='$bootstrap',
  'scan.startup.mode'='earliest-offset', 'scan.bounded.mode'='latest-offset', 'format'='json');
SET 'execution.checkpointing.interval' = '1s';
INSERT INTO lake.db.events SELECT * FROM default_catalog.default_database.k;
SQL
reset_floe() { rm -rf "$work/lake" "$work/cp" "$work/wh"; }

printf '%-8s %9s %7s %9s %12s %s\n' engine seconds cpu_s peak_MB records_per_s vs_kcat
declare -A secs mems cpus
read -r secs[kcat] mems[kcat] cpus[kcat] < <(measure kcat -C -b "$bootstrap" -t "$topic" -o beginning -e -q)
before_each=reset_floe
read -r secs[floe] mems[floe] cpus[floe] < <(measure "$floe" run "$work/kafka.sql" --warehouse "$work/wh" --checkpoint-dir "$work/cp")
before_each=
for engine in kcat floe; do
  rate=$(awk "BEGIN{printf \"%.0f\", $rows / ${secs[$engine]}}")
  share=$(awk "BEGIN{printf \"%.0f%%\", 100 * ${secs[kcat]} / ${secs[$engine]}}")
  printf '%-8s %9s %7s %9s %12s %s\n' "$engine" "${secs[$engine]}" "${cpus[$engine]}" "${mems[$engine]}" "$rate" "$share"
done
