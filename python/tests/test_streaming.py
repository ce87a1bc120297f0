"""A streaming collect() sees the rows another process commits: `floe sql` (the binary) writes
into the table a TableEnvironment reads as a change stream."""

import os
import subprocess
import unittest

import floe
from support import FLOE_BINARY, TempDirTest


class StreamingCollectTest(TempDirTest):
    def test_rows_committed_by_another_process_arrive(self):
        if not os.path.exists(FLOE_BINARY):
            raise unittest.SkipTest(f"no floe binary at {FLOE_BINARY}")
        warehouse = os.path.join(self.dir, "warehouse")
        t_env = self.t_env
        t_env.execute_sql("CREATE TABLE events (id BIGINT, name STRING)")
        t_env.get_config().set("table.dynamic-table-options.enabled", "true")
        result = t_env.execute_sql(
            "SELECT * FROM events /*+ OPTIONS('streaming'='true', 'monitor-interval'='200ms') */")
        self.assertTrue(result.is_changelog)
        with result.collect() as rows:
            for batch, first in ((["(1, 'one')", "(2, 'two')"], 1), (["(3, 'three')"], 3)):
                subprocess.run([FLOE_BINARY, "sql", "--warehouse", warehouse, "-e",
                                "SET 'execution.runtime-mode' = 'batch'; INSERT INTO events VALUES "
                                + ", ".join(batch) + ";"],
                               check=True, capture_output=True, timeout=120)
                got = [next(rows) for _ in batch]
                self.assertEqual(sorted(r.id for r in got), list(range(first, first + len(batch))))
                self.assertTrue(all(r.get_row_kind() is floe.RowKind.INSERT for r in got))
        self.assertEqual(sorted(r.name for r in t_env.execute_sql(
            "SELECT name FROM events /*+ OPTIONS('streaming'='false') */").collect()),
            ["one", "three", "two"])


if __name__ == "__main__":
    unittest.main()
