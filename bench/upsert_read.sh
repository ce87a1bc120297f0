#!/usr/bin/env bash
# Reading an upserted table: floe against ClickHouse (icebergLocal) on the same table folder, side
# by side in one run. The table (issue 29): ROWS rows of the make-inputs events written by `floe sql`
# into a v2 upsert table keyed by id, then four upserts of ROWS/5 existing keys each (id % 5 = 0..3,
# new values), so five data files and five equality-delete files. The query:
#   SELECT count(*), count(DISTINCT category), sum(id)
# Prints the best of RUNS wall times, CPU seconds and peak RSS of each engine (whole processes; both
# use their default threads), the ratio floe / ClickHouse, and checks the two answers are equal.
# Usage: bench/upsert_read.sh [ROWS=2000000] [RUNS=3]; FLOE=path/to/floe, SHARED=../shared,
# INPUTS=a make-inputs directory to reuse, WORK=a scratch folder (kept), PERF=1 to record a perf
# profile of one floe read into WORK/perf.data.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rows=${1:-${ROWS:-2000000}}
runs=${2:-${RUNS:-3}}
shared=${SHARED:-$here/../shared}
floe=${FLOE:-$here/build/release/floe}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
inputs=${INPUTS:-$work/inputs-$rows}
[ -f "$inputs/events.parquet" ] || "$shared/bench/make-inputs" "$inputs" "$rows" >/dev/null
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"

warehouse="$work/warehouse"
floe_sql="$work/floe-sql"
printf '#!/usr/bin/env bash\nexec "%s" sql --warehouse "%s" -e "SET '"'"'execution.runtime-mode'"'"' = '"'"'batch'"'"'; SET '"'"'sql-client.execution.result-mode'"'"' = '"'"'jsonl'"'"'; $1"\n' "$floe" "$warehouse" > "$floe_sql"
chmod +x "$floe_sql"

if [ ! -f "$work/table-written" ]; then
  rm -rf "$warehouse" "$warehouse.catalog.db"
  write="CREATE TABLE default_catalog.default_database.events_src (id BIGINT, ts TIMESTAMP(6),
      category STRING, \`value\` DECIMAL(21, 1), payload STRING)
    WITH ('connector' = 'filesystem', 'path' = '$inputs/events.parquet', 'format' = 'parquet');
  CREATE TABLE up (id BIGINT, ts TIMESTAMP(6), category STRING, \`value\` DOUBLE, payload STRING,
      PRIMARY KEY (id) NOT ENFORCED)
    WITH ('format-version' = '2', 'write.upsert.enabled' = 'true');
  INSERT INTO up SELECT id, ts, category, CAST(\`value\` AS DOUBLE), payload
    FROM default_catalog.default_database.events_src;"
  for k in 0 1 2 3; do
    write="$write
  INSERT INTO up SELECT id, ts, 'up_$k', CAST(\`value\` AS DOUBLE) + 1, payload
    FROM default_catalog.default_database.events_src WHERE id % 5 = $k;"
  done
  "$floe_sql" "$write" >/dev/null
  touch "$work/table-written"
fi
table=$(dirname "$(find "$warehouse" -path '*/up/metadata' -type d | head -1)")
[ -d "$table/data" ] || { echo "upsert_read: no table folder under $warehouse" >&2; exit 1; }
echo "table: $table ($(find "$table/data" -name '*.parquet' | wc -l) Parquet files)"

floe_query='SELECT count(*) AS n, count(DISTINCT category) AS c, sum(id) AS s FROM up;'
ch_query="SELECT count() AS n, uniqExact(category) AS c, sum(id) AS s FROM icebergLocal('$table')"
declare -A secs mems cpus
read -r secs[clickhouse] mems[clickhouse] cpus[clickhouse] < <(measure "$shared/peers/ch" "$ch_query")
read -r secs[floe] mems[floe] cpus[floe] < <(measure "$floe_sql" "$floe_query")
printf '%-11s %9s %7s %9s\n' engine seconds cpu_s peak_MB
for engine in floe clickhouse; do
  printf '%-11s %9s %7s %9s\n' "$engine" "${secs[$engine]}" "${cpus[$engine]}" "${mems[$engine]}"
done
echo "floe / clickhouse: $(awk "BEGIN{printf \"%.2fx\", ${secs[floe]} / ${secs[clickhouse]}}")"
floe_answer=$("$floe_sql" "$floe_query" | tail -1)
ch_answer=$("$shared/peers/ch" "$ch_query" JSONEachRow | tail -1)
echo "  floe:       $floe_answer"
echo "  clickhouse: $ch_answer"
python3 - "$floe_answer" "$ch_answer" <<'EOF'
import json, sys
a, b = (json.loads(x) for x in sys.argv[1:])
same = all(int(a[k]) == int(b[k]) for k in ("n", "c", "s"))
print("answers equal" if same else "ANSWERS DIFFER")
sys.exit(0 if same else 1)
EOF
if [ "${PERF:-0}" = 1 ]; then
  perf record -g -o "$work/perf.data" "$floe_sql" "$floe_query" >/dev/null 2>&1
  echo "perf profile: $work/perf.data"
fi
