#!/usr/bin/env bash
# WriteRows into 1, 10 and 100 tables against the single-table IcebergSink, in one run, each job in
# a fresh warehouse: rows per CPU second and catalog requests (bench/write_rows.cc).
#
#   bench/write_rows.sh [BUILD_DIR] [ROWS]
set -euo pipefail
build=${1:-build/bench}
rows=${2:-2000000}
bin="$build/bench/floe_bench_write_rows"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tables in 0 1 10 100 0; do
  rm -rf "$work/wh"
  "$bin" "$work/wh" "$rows" "$tables"
done
