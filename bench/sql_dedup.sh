#!/usr/bin/env bash
# Times floe's streaming deduplication (ROW_NUMBER() OVER (PARTITION BY category ORDER BY ts) = 1,
# keeping the first and the last row per category) over make-inputs' events.parquet at parallelism
# 1, against DuckDB's row_number over the same file (single-threaded, one process each), and checks
# that both keep the same rows (floe's keep-last changelog applied).
# Usage: bench/sql_dedup.sh [ROWS=10000000] [RUNS=3]; FLOE=path/to/floe, SHARED=../shared,
# INPUTS=a make-inputs directory to reuse.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"
bench_setup 10000000 events.parquet "$@"

mkdir -p "$work/ev"
ln -sf "$inputs/events.parquet" "$work/ev/events.parquet"
duck="$shared/peers/duck"
printf '%-6s %-7s %9s %7s %9s %11s\n' keep engine seconds cpu_s peak_MB rows_per_s
for keep in first last; do
  order=$([ "$keep" = first ] && echo ASC || echo DESC)
  script="$work/$keep.sql"
  cat > "$script" <<SQL
SET 'execution.runtime-mode' = 'streaming';
SET 'parallelism.default' = '1';
SET 'sql-client.execution.result-mode' = 'changelog';
CREATE TABLE default_catalog.default_database.ev (id BIGINT, ts TIMESTAMP(3), category STRING,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '$work/ev', 'format' = 'parquet');
SELECT category, id FROM (SELECT category, id, ROW_NUMBER() OVER (PARTITION BY category
  ORDER BY ts $order) AS rn FROM default_catalog.default_database.ev) WHERE rn = 1;
SQL
  printf '#!/usr/bin/env bash\nexec "%s" sql --warehouse "%s" -f "%s" > "%s"\n' "$floe" \
    "$work/wh" "$script" "$work/$keep.out" > "$work/floe-$keep"
  duck_sql="SET threads = 1; SELECT category, id FROM (SELECT category, id, row_number() OVER
    (PARTITION BY category ORDER BY ts $order, id $order) AS rn FROM
    read_parquet('$inputs/events.parquet')) WHERE rn = 1"
  printf '#!/usr/bin/env bash\nexec "%s" "%s" > "%s"\n' "$duck" "$duck_sql" "$work/duck-$keep.out" \
    > "$work/duck-$keep"
  chmod +x "$work/floe-$keep" "$work/duck-$keep"
  for engine in floe duck; do
    read -r secs mem cpu < <(measure "$work/$engine-$keep")
    printf '%-6s %-7s %9s %7s %9s %11s\n' "$keep" "$engine" "$secs" "$cpu" "$mem" \
      "$(awk "BEGIN{printf \"%.0f\", $rows / $secs}")"
  done
  # floe's rows with the changelog applied, against DuckDB's.
  python3 - "$work/$keep.out" "$work/duck-$keep.out" <<'PY'
import json, sys
kept = {}
for line in open(sys.argv[1]):
    if line[:2] in ("+I", "+U", "-U", "-D"):
        row = line[3:].strip().rstrip("]")
        kept[row] = kept.get(row, 0) + (1 if line[0] == "+" else -1)
floe = sorted(row for row, n in kept.items() if n > 0)
duck = sorted(f"{r['category']}, {r['id']}" for r in map(json.loads, open(sys.argv[2])) if 'id' in r)
if floe != duck:
    sys.exit(f"floe and DuckDB keep different rows: {len(floe)} and {len(duck)}")
PY
done
