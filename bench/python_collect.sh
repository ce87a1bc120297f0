#!/usr/bin/env bash
# The Python module's benchmark (docs/python.md): the events table (make-inputs, 10M rows by
# default) appended into an Iceberg table, then collect() into Python rows against json.loads of
# the same rows as `floe sql` prints them in its jsonl mode, and the Arrow export's bytes
# exported and copied (floe_bench_arrow_export).
# Usage: bench/python_collect.sh [ROWS=10000000] [RUNS=3]; FLOE=path/to/floe, SHARED=../shared,
# INPUTS=a make-inputs directory to reuse.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/measure.sh
source "$here/bench/measure.sh"
bench_setup 10000000 events.parquet "$@"
build=$(dirname "$floe")

warehouse="$work/python/warehouse"
rm -rf "$work/python"
"$floe" append "$warehouse/db/events" "$inputs/events.parquet" >/dev/null
"$floe" sql --warehouse "$work/python/embedded" -e "
  CREATE CATALOG bench WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='$warehouse');
  SET 'execution.runtime-mode' = 'batch';
  SET 'sql-client.execution.result-mode' = 'jsonl';
  SELECT * FROM bench.db.events;" | grep '^{' >"$work/python/events.jsonl"
PYTHONPATH="$build/python" python3 "$here/bench/python_collect.py" "$warehouse" events \
  "$work/python/events.jsonl" "$runs"
"$build/bench/floe_bench_arrow_export" "$warehouse" db.events
