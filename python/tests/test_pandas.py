"""to_pandas(): a result and a table scan as a pandas DataFrame. pandas is not a dependency of
floe: when the python running the tests cannot import it, the same tests run under Debian's
python3 (/usr/bin/python3, for which scripts/bootstrap installs python3-pandas) when that one
imports both floe and pandas; otherwise they are skipped, saying why."""

import datetime
import decimal
import os
import subprocess
import sys
import unittest

from support import TempDirTest, child_env

try:
    import pandas
except ImportError:
    pandas = None

DEBIAN_PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))


@unittest.skipIf(pandas is None, "pandas is not importable here (PandasElsewhereTest runs it)")
class PandasTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.hadoop_catalog()
        self.t_env.get_config().set("execution.runtime-mode", "batch")
        self.t_env.execute_sql("CREATE TABLE t (id BIGINT, name STRING, price DECIMAL(9,2), "
                               "ts TIMESTAMP(6), tags ARRAY<STRING>)")
        self.t_env.execute_sql(
            "INSERT INTO t VALUES (1, 'one', 1.25, TIMESTAMP '2026-01-01 00:00:01', "
            "ARRAY['a', 'b']), (2, NULL, NULL, NULL, NULL), "
            "(3, 'three', -0.5, TIMESTAMP '1900-03-01 12:00:00.000001', ARRAY['c'])").wait()

    def test_a_result_as_a_data_frame(self):
        frame = self.t_env.execute_sql("SELECT * FROM t ORDER BY id").to_pandas()
        self.assertIsInstance(frame, pandas.DataFrame)
        self.assertEqual(list(frame.columns), ["id", "name", "price", "ts", "tags"])
        self.assertEqual(frame["id"].tolist(), [1, 2, 3])
        self.assertEqual(str(frame["id"].dtype), "int64")
        self.assertEqual(frame["name"].tolist(), ["one", None, "three"])
        self.assertEqual(frame["price"].tolist()[0], decimal.Decimal("1.25"))
        self.assertIsNone(frame["price"].tolist()[1])
        self.assertEqual(str(frame["ts"].dtype), "datetime64[ns]")
        self.assertEqual(frame["ts"].iloc[0], pandas.Timestamp("2026-01-01 00:00:01"))
        self.assertTrue(pandas.isna(frame["ts"].iloc[1]))
        self.assertEqual(frame["ts"].iloc[2].to_pydatetime(),
                         datetime.datetime(1900, 3, 1, 12, 0, 0, 1))
        self.assertEqual(frame["tags"].tolist(), [["a", "b"], None, ["c"]])

    def test_a_table_scan_and_an_empty_result(self):
        frame = self.t_env.from_path("db.t").to_pandas()
        self.assertEqual(sorted(frame["id"].tolist()), [1, 2, 3])
        empty = self.t_env.execute_sql("SELECT id, name FROM t WHERE id > 10").to_pandas()
        self.assertEqual(list(empty.columns), ["id", "name"])
        self.assertEqual(len(empty), 0)


@unittest.skipIf(pandas is not None, "pandas is importable here: PandasTest ran")
class PandasElsewhereTest(unittest.TestCase):
    def test_under_debians_python(self):
        if not os.path.exists(DEBIAN_PYTHON) or \
                os.path.realpath(DEBIAN_PYTHON) == os.path.realpath(sys.executable):
            self.skipTest(f"pandas is not importable here and there is no other {DEBIAN_PYTHON}")
        probe = subprocess.run([DEBIAN_PYTHON, "-c", "import floe, pandas"], env=child_env(),
                               capture_output=True, text=True, timeout=120)
        if probe.returncode != 0:
            reason = (probe.stderr.strip().splitlines() or ["?"])[-1]
            self.skipTest(f"{DEBIAN_PYTHON} cannot import both floe and pandas ({reason}); "
                          "scripts/bootstrap installs python3-pandas")
        run = subprocess.run([DEBIAN_PYTHON, "-m", "unittest", "-v", "test_pandas.PandasTest"],
                             cwd=HERE, env=child_env(), capture_output=True, text=True,
                             timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("Ran 2 tests", run.stderr)
        self.assertNotIn("skipped", run.stderr)


if __name__ == "__main__":
    unittest.main()
