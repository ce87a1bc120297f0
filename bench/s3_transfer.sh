#!/usr/bin/env bash
# floe on S3 against `aws s3 cp` of the same bytes, side by side in one run, on one moto server on
# loopback (../shared/peers/s3-server): the events table of make-inputs (ROWS rows) is
#   written    floe sql INSERT into a table whose SQL catalog's warehouse is in the bucket, against
#              `aws s3 cp --recursive` uploading the same table's files from a local warehouse;
#   read       floe scan-all over the S3 table (every column chunk read), against `aws s3 cp` of the
#              same data files to /dev/null;
#   scanned    scan-agg and scan-all over the S3 table, against the same tasks over the local table.
# Prints the best of RUNS wall times, MB/s over the table's data bytes, and the ratios.
# Usage: bench/s3_transfer.sh [ROWS=10000000] [RUNS=3]; FLOE=path/to/floe, SHARED=../shared,
# INPUTS=a make-inputs directory to reuse.
set -euo pipefail
command -v aws >/dev/null || { echo "s3_transfer: the aws CLI is not installed" >&2; exit 3; }
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"
bench_setup 10000000 events.parquet "$@"

read -r endpoint moto_pid < <("$shared/peers/s3-server" "$work/moto.log")
trap 'kill "$moto_pid" 2>/dev/null || true' EXIT
export AWS_ENDPOINT_URL=$endpoint AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench \
  AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
aws s3 mb s3://bench >/dev/null

columns='id BIGINT, ts TIMESTAMP(6), category STRING, `value` DOUBLE, payload STRING'
source_table="CREATE TABLE default_catalog.default_database.events_src (id BIGINT, ts TIMESTAMP(6),
  category STRING, \`value\` DECIMAL(21, 1), payload STRING)
  WITH ('connector' = 'filesystem', 'path' = '$inputs/events.parquet', 'format' = 'parquet');"
# One writer a core (the source's byte-range splits share the one input file): aws s3 cp sends 10
# requests at once.
ingest="CREATE TABLE IF NOT EXISTS db.events ($columns) WITH ('write.parquet.compression-codec' = 'zstd');
SET 'parallelism.default' = '$(nproc)';
INSERT INTO db.events SELECT id, ts, category, CAST(\`value\` AS DOUBLE), payload
  FROM default_catalog.default_database.events_src;"
declare -A sql
sql[scan-agg]='SELECT count(*) AS n, sum(id) AS s, sum(`value`) AS v, count(DISTINCT category) AS c FROM db.events;'
sql[scan-all]='SELECT sum(char_length(payload)) AS l, max(ts) AS t, sum(id) AS s FROM db.events;'

# One script per warehouse: measure runs programs.
for place in local s3; do
  if [ "$place" = local ]; then
    warehouse="$work/local-wh"
  else
    warehouse="s3://bench/wh"
  fi
  # The catalog and the source table, in a file: their backticks must not meet a shell.
  cat >"$work/prelude-$place.sql" <<SQL
CREATE CATALOG c WITH ('type'='iceberg', 'catalog-type'='sql',
  'uri'='jdbc:sqlite:$work/$place.db', 'warehouse'='$warehouse');
USE CATALOG c; CREATE DATABASE IF NOT EXISTS db; SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'jsonl'; $source_table
SQL
  cat >"$work/floe-$place" <<SCRIPT
#!/usr/bin/env bash
exec "$floe" sql -e "\$(cat "$work/prelude-$place.sql") \$1"
SCRIPT
  chmod +x "$work/floe-$place"
done
reset() {
  rm -rf "$work/local-wh" "$work/local.db" "$work/s3.db"
  aws s3 rm --recursive --quiet s3://bench/wh/ >/dev/null || true
  aws s3 rm --recursive --quiet s3://bench/copy/ >/dev/null || true
}

printf '%-22s %9s %9s %9s\n' step seconds MB/s cpu_s
row() { printf '%-22s %9s %9s %9s\n' "$1" "$2" "$(awk "BEGIN{printf \"%.1f\", $bytes / 1e6 / $2}")" "$3"; }

before_each=reset
read -r w_s3 _ w_s3_cpu < <(measure "$work/floe-s3" "$ingest")
before_each=
# The tables the rest reads: one local, one on S3, from the same rows.
reset
"$work/floe-local" "$ingest" >/dev/null
"$work/floe-s3" "$ingest" >/dev/null
data_dir="$work/local-wh/db/events/data"
bytes=$(du -sb "$data_dir" | cut -f1)
s3_keys=$(aws s3 ls --recursive s3://bench/wh/db/events/data/ | awk '{print $4}')

# measure times programs, not shell functions.
cat >"$work/upload" <<SCRIPT
#!/usr/bin/env bash
exec aws s3 cp --recursive --quiet "$data_dir" s3://bench/copy/
SCRIPT
cat >"$work/download" <<SCRIPT
#!/usr/bin/env bash
for key in $(echo $s3_keys); do aws s3 cp --quiet "s3://bench/\$key" - >/dev/null; done
SCRIPT
chmod +x "$work/upload" "$work/download"
read -r up _ up_cpu < <(measure "$work/upload")
read -r down _ down_cpu < <(measure "$work/download")
read -r r_s3 _ r_s3_cpu < <(measure "$work/floe-s3" "${sql[scan-all]}")
echo "data files: $(echo "$s3_keys" | wc -w), $bytes bytes"
row "write floe (encode+put)" "$w_s3" "$w_s3_cpu"
row "write aws s3 cp" "$up" "$up_cpu"
row "read floe scan-all" "$r_s3" "$r_s3_cpu"
row "read aws s3 cp" "$down" "$down_cpu"
awk "BEGIN{printf \"floe read / aws read throughput: %.2f (target >= 0.90)\n\", $down / $r_s3}"
awk "BEGIN{printf \"floe write / aws upload throughput: %.2f (target >= 1.00)\n\", $up / $w_s3}"

for task in scan-agg scan-all; do
  read -r l _ l_cpu < <(measure "$work/floe-local" "${sql[$task]}")
  read -r s _ s_cpu < <(measure "$work/floe-s3" "${sql[$task]}")
  row "$task local" "$l" "$l_cpu"
  row "$task s3" "$s" "$s_cpu"
  awk "BEGIN{printf \"%s: s3 / (local + transfer floor %.2f s) = %.2f (target <= 1.30)\n\", \"$task\", $down, $s / ($l + $down)}"
  echo "  local: $("$work/floe-local" "${sql[$task]}" | tail -1)"
  echo "  s3:    $("$work/floe-s3" "${sql[$task]}" | tail -1)"
done
