#!/usr/bin/env bash
# WriteRows into 1, 10 and 100 tables against the single-table IcebergSink, in one run, each job in
# a fresh warehouse: rows per CPU second and catalog requests (bench/write_rows.cc). The
# partitioned IcebergSink runs (-10, -100) write as many data files per commit as WriteRows into
# 10 and 100 tables, into one table. Warehouses are deleted only at the end: on ext4 without a
# journal, creating files right after deleting many costs the kernel several ms per file (inode
# allocation skips recently deleted inodes), which would charge one run for the previous one.
#
# ROWS defaults to 50M: 500,000 rows per table at 100 tables, so that what a table costs once
# (creating it, its commit, its file) weighs about as it does in a long-running job.
#
#   bench/write_rows.sh [BUILD_DIR] [ROWS]
set -euo pipefail
build=${1:-build/bench}
rows=${2:-50000000}
bin="$build/bench/floe_bench_write_rows"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run=0
for tables in 0 1 10 -10 100 -100 0; do
  run=$((run + 1))
  "$bin" "$work/wh$run" "$rows" "$tables"
done
