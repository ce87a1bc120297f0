"""floe's errors as Python exceptions, and Ctrl-C (SIGINT) interrupting a long query and a long
statement."""

import os
import signal
import subprocess
import sys
import textwrap
import time
import unittest

import floe
from support import TempDirTest


class ErrorsTest(TempDirTest):
    def test_each_kind_has_its_class_and_floe_message(self):
        t_env = self.t_env
        with self.assertRaises(floe.InvalidArgumentError) as caught:
            t_env.execute_sql("SELEC 1")
        self.assertIsInstance(caught.exception, ValueError)
        self.assertIn("line 1, column 1", str(caught.exception))
        with self.assertRaises(floe.NotFoundError) as caught:
            t_env.execute_sql("SELECT * FROM missing")
        self.assertIsInstance(caught.exception, LookupError)
        self.assertEqual(str(caught.exception), "table default.missing does not exist")
        t_env.execute_sql("CREATE TABLE t (id BIGINT)")
        with self.assertRaisesRegex(floe.AlreadyExistsError, "already exists"):
            t_env.execute_sql("CREATE TABLE t (id BIGINT)")
        with self.assertRaises(floe.UnsupportedError) as caught:
            t_env.execute_sql("CREATE CATALOG h WITH ('type'='iceberg', 'catalog-type'='hive')")
        self.assertIsInstance(caught.exception, NotImplementedError)
        with self.assertRaises(floe.NotFoundError):
            t_env.use_catalog("nope")
        for kind in (floe.InvalidArgumentError, floe.NotFoundError, floe.AlreadyExistsError,
                     floe.ConflictError, floe.CommitStateUnknownError, floe.IOError,
                     floe.CorruptDataError, floe.UnsupportedError, floe.InternalError,
                     floe.CancelledError, floe.ResourceExhaustedError):
            self.assertTrue(issubclass(kind, floe.Error), kind)

    def test_write_rows_refuses_bad_input(self):
        with self.assertRaisesRegex(floe.InvalidArgumentError, "row 1 has 1 keys, row 0 has 2"):
            self.t_env.write_rows("w", [{"a": 1, "b": 2}, {"a": 1}])
        with self.assertRaisesRegex(floe.InvalidArgumentError,
                                    "row 1, column 'a': a Python str in a column of int64"):
            self.t_env.write_rows("w", [{"a": 1}, {"a": "x"}])
        with self.assertRaisesRegex(floe.InvalidArgumentError, "column 'a' has only nulls"):
            self.t_env.write_rows("w", [{"a": None}])
        with self.assertRaisesRegex(floe.InvalidArgumentError, "no option 'colour'"):
            self.t_env.write_rows("w", [{"a": 1}], colour="red")
        with self.assertRaisesRegex(floe.InvalidArgumentError, "triggering frequency"):
            self.t_env.write_rows("w", [{"a": 1}], triggering_frequency=60)

    def test_job_client_waits_for_the_insert(self):
        self.t_env.execute_sql("CREATE TABLE default_catalog.default_database.src (id BIGINT) WITH ('connector'='datagen', "
                               "'number-of-rows'='10')")
        self.t_env.execute_sql("CREATE TABLE dst (id BIGINT)")
        client = self.t_env.execute_sql("INSERT INTO dst SELECT id FROM default_catalog.default_database.src").get_job_client()
        self.assertEqual(client.wait()["state"], "FINISHED")
        self.assertEqual(len(list(self.t_env.execute_sql(
            "SELECT * FROM dst /*+ OPTIONS('streaming'='false') */").collect())), 10)


# The child process: a TableEnvironment doing something long, told to stop by SIGINT.
CHILD = textwrap.dedent("""
    import sys, time, floe
    t_env = floe.TableEnvironment(warehouse=sys.argv[1])
    t_env.execute_sql("CREATE TABLE default_catalog.default_database.src (id BIGINT) WITH ('connector'='datagen', "
                      "'rows-per-second'='1000')")
    t_env.execute_sql("CREATE TABLE dst (id BIGINT)")
    if sys.argv[2] == "collect":
        rows = t_env.execute_sql("SELECT id FROM default_catalog.default_database.src").collect()
        next(rows)
        print("ready", flush=True)
        try:
            for _ in rows:
                pass
        except KeyboardInterrupt:
            print("interrupted", flush=True)
    else:
        t_env.get_config().set("execution.runtime-mode", "batch")
        t_env.execute_sql("CREATE TABLE default_catalog.default_database.big (id BIGINT) WITH ('connector'='datagen', "
                          "'number-of-rows'='1000000000000')")
        print("ready", flush=True)
        try:
            t_env.execute_sql("INSERT INTO dst SELECT id FROM default_catalog.default_database.big")
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        print(list(t_env.execute_sql("SELECT COUNT(*) FROM dst").collect())[0][0], flush=True)
""")


class InterruptTest(TempDirTest):
    def interrupt(self, mode):
        child = subprocess.Popen([sys.executable, "-c", CHILD, os.path.join(self.dir, "child"),
                                  mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(child.kill)
        self.assertEqual(child.stdout.readline().strip(), "ready")
        time.sleep(1.0)
        start = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        self.assertEqual(child.returncode, 0, err)
        self.assertLess(time.monotonic() - start, 10)
        return out.split()

    def test_ctrl_c_cancels_a_streaming_collect(self):
        self.assertEqual(self.interrupt("collect"), ["interrupted"])

    def test_ctrl_c_stops_a_long_insert(self):
        # The job was cancelled, so it committed nothing.
        self.assertEqual(self.interrupt("insert"), ["interrupted", "0"])


if __name__ == "__main__":
    unittest.main()
