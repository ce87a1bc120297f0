"""collect() of a table into Python rows against json.loads of the same rows as JSON lines (what
a script gets from `floe sql` in the jsonl result mode today), and the bytes the Arrow export
hands over. Usage: python3 bench/python_collect.py WAREHOUSE TABLE JSONL [RUNS]: WAREHOUSE a
hadoop catalog folder holding db.TABLE, JSONL its rows as `floe sql` writes them. Prints one
line per measurement; see bench/python_collect.sh."""

import json
import sys
import time

import floe


def best(runs, fn):
    times, value = [], None
    for _ in range(runs):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times), value


def main():
    warehouse, table, jsonl = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    t_env = floe.TableEnvironment(warehouse="", config={"execution.runtime-mode": "batch"})
    t_env.execute_sql(f"CREATE CATALOG bench WITH ('type'='iceberg', 'catalog-type'='hadoop', "
                      f"'warehouse'='{warehouse}')")
    t_env.use_catalog("bench")
    t_env.use_database("db")

    def collect():
        n = 0
        for _ in t_env.execute_sql(f"SELECT * FROM {table}").collect():
            n += 1
        return n

    def loads():
        n = 0
        with open(jsonl) as lines:
            for line in lines:
                json.loads(line)
                n += 1
        return n

    seconds, rows = best(runs, collect)
    print(f"collect         {rows} rows {seconds:.2f} s {rows / seconds / 1e6:.2f} M rows/s")
    seconds, lines = best(runs, loads)
    print(f"json.loads      {lines} rows {seconds:.2f} s {lines / seconds / 1e6:.2f} M rows/s")


if __name__ == "__main__":
    main()
