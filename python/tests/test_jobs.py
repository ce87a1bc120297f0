"""TableResult.wait and JobClient.wait: an INSERT's job waited for to its end, or for at most a
timeout (TimeoutError, the job left running), then cancelled."""

import time
import unittest

import floe
from support import TempDirTest


class WaitTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.t_env.execute_sql("CREATE TABLE default_catalog.default_database.endless (id BIGINT) "
                               "WITH ('connector'='datagen', 'rows-per-second'='100')")
        self.t_env.execute_sql("CREATE TABLE default_catalog.default_database.five (id BIGINT) "
                               "WITH ('connector'='datagen', 'number-of-rows'='5')")
        self.t_env.execute_sql("CREATE TABLE dst (id BIGINT)")

    def test_a_timeout_leaves_a_streaming_insert_running(self):
        result = self.t_env.execute_sql(
            "INSERT INTO dst SELECT id FROM default_catalog.default_database.endless")
        client = result.get_job_client()
        self.assertRegex(client.get_job_id(), "^[0-9a-f]{32}$")
        start = time.monotonic()
        with self.assertRaisesRegex(TimeoutError, "is still running after 300 ms"):
            result.wait(300)
        waited = time.monotonic() - start
        self.assertGreaterEqual(waited, 0.3)
        self.assertLess(waited, 5)
        self.assertEqual(client.get_job_status(), "RUNNING")
        with self.assertRaises(TimeoutError):
            client.wait(timeout_ms=0)
        client.cancel()
        with self.assertRaises(floe.CancelledError):
            client.wait(timeout_ms=30000)
        self.assertEqual(client.get_job_status(), "CANCELED")

    def test_a_bounded_insert_ends_within_the_timeout(self):
        result = self.t_env.execute_sql(
            "INSERT INTO dst SELECT id FROM default_catalog.default_database.five")
        status = result.get_job_client().wait(timeout_ms=60000)
        self.assertEqual(status["state"], "FINISHED")
        self.assertEqual(result.wait()["state"], "FINISHED")  # again: at once
        self.assertEqual(result.wait(0)["state"], "FINISHED")
        self.assertEqual(len(self.rows("SELECT * FROM dst /*+ OPTIONS('streaming'='false') */")),
                         5)

    def test_a_batch_insert_has_ended_when_execute_sql_returns(self):
        self.t_env.get_config().set("execution.runtime-mode", "batch")
        result = self.t_env.execute_sql(
            "INSERT INTO dst SELECT id FROM default_catalog.default_database.five")
        self.assertEqual(result.get_job_client().get_job_id(), "")
        self.assertEqual(result.wait(0), {"state": "FINISHED"})
        self.assertEqual(len(self.rows("SELECT * FROM dst")), 5)

    def test_statements_without_a_job_wait_for_nothing(self):
        result = self.t_env.execute_sql("CREATE DATABASE other")
        self.assertIsNone(result.get_job_client())
        self.assertIsNone(result.wait(10))

    def test_a_bad_timeout_is_refused(self):
        result = self.t_env.execute_sql(
            "INSERT INTO dst SELECT id FROM default_catalog.default_database.five")
        for bad in (-1, 1.5, "10", True):
            with self.assertRaisesRegex(floe.InvalidArgumentError, "timeout_ms must be"):
                result.wait(bad)
        result.wait()


if __name__ == "__main__":
    unittest.main()
