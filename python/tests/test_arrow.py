"""The Arrow PyCapsule export, read back by the tests' own C Data Interface reader
(arrow_reader.py): the same values as collect(), buffers, offsets and validity as the
specification lays them out."""

import datetime
import decimal
import unittest

import floe
from arrow_reader import RequestedSchema, read_stream
from support import TempDirTest


class ArrowExportTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.hadoop_catalog()
        self.t_env.get_config().set("execution.runtime-mode", "batch")
        self.t_env.execute_sql(
            "CREATE TABLE t (id BIGINT, i INT, b BOOLEAN, d DOUBLE, dec DECIMAL(9,2), s STRING, "
            "bin VARBINARY, dt DATE, ts TIMESTAMP(6), tz TIMESTAMP_LTZ(6), arr ARRAY<INT>, "
            "m MAP<STRING,INT>)")
        self.t_env.execute_sql(
            "INSERT INTO t VALUES "
            "(1, 10, true, 0.5, 1.25, 'one', CAST('x' AS VARBINARY), DATE '2026-01-01', "
            "TIMESTAMP '2026-01-01 00:00:01', TO_TIMESTAMP_LTZ(1000, 3), ARRAY[1, 2], MAP['a', 1]),"
            "(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
            "(3, -3, false, -1.5, -0.01, '\u00e9t\u00e9', CAST('' AS VARBINARY), DATE '1900-03-01', "
            "TIMESTAMP '1900-01-01 12:00:00.5', TO_TIMESTAMP_LTZ(-1, 3), ARRAY[3], MAP['b', 2, 'c', 3])"
        ).wait()

    def check(self, condition, message):
        self.assertTrue(condition, message)

    def test_stream_holds_the_rows_collect_gives(self):
        expected = self.rows("SELECT * FROM t ORDER BY id")
        capsule = self.t_env.execute_sql("SELECT * FROM t ORDER BY id").__arrow_c_stream__()
        names, formats, rows, stats = read_stream(capsule, self.check)
        self.assertEqual(names, ["id", "i", "b", "d", "dec", "s", "bin", "dt", "ts", "tz", "arr", "m"])
        self.assertEqual(formats, ["l", "i", "b", "g", "d:9,2", "u", "z", "tdD", "tsu:", "tsu:UTC",
                                   "+l", "+m"])
        self.assertEqual(rows, expected)
        self.assertEqual(rows[1][1:], (None,) * 11)
        self.assertEqual(rows[0][4], decimal.Decimal("1.25"))
        self.assertEqual(rows[2][8], datetime.datetime(1900, 1, 1, 12, 0, 0, 500000))
        self.assertGreater(stats.bytes, 0)

    def test_table_scan_through_from_path(self):
        table = self.t_env.from_path("db.t")
        _, _, rows, _ = read_stream(table.__arrow_c_stream__(), self.check)
        self.assertEqual(sorted(r[0] for r in rows), [1, 2, 3])

    def test_a_stream_is_taken_once(self):
        result = self.t_env.execute_sql("SELECT id FROM t")
        capsule = result.__arrow_c_stream__()
        with self.assertRaises(ValueError):
            result.__arrow_c_stream__()
        del capsule  # an unread capsule releases its stream

    def test_a_statement_without_rows_has_no_stream(self):
        with self.assertRaises(floe.InvalidArgumentError):
            self.t_env.execute_sql("CREATE DATABASE other").__arrow_c_stream__()

    def test_a_requested_schema_is_best_effort(self):
        # The PyCapsule protocol: the producer tries the requested representation and may keep
        # its own; a request that does not describe the same columns is an error.
        expected = self.rows("SELECT id, s FROM t ORDER BY id")
        wider = RequestedSchema(["l", "U"])  # large strings asked: floe's are "u"
        result = self.t_env.execute_sql("SELECT id, s FROM t ORDER BY id")
        _, formats, rows, _ = read_stream(result.__arrow_c_stream__(wider.capsule), self.check)
        self.assertEqual(formats, ["l", "u"])
        self.assertEqual(rows, expected)
        result = self.t_env.execute_sql("SELECT id, s FROM t ORDER BY id")
        narrower = RequestedSchema(["l"])
        with self.assertRaisesRegex(floe.InvalidArgumentError,
                                    r"requested Arrow schema \(\+s with 1 children\) does not "
                                    "describe this result's 2 columns"):
            result.__arrow_c_stream__(narrower.capsule)
        _, _, rows, _ = read_stream(result.__arrow_c_stream__(), self.check)  # still unread
        self.assertEqual(rows, expected)
        with self.assertRaises(ValueError):  # not an arrow_schema capsule
            self.t_env.execute_sql("SELECT id FROM t").__arrow_c_stream__(wider)

    def test_nanoseconds_are_exact_in_arrow_and_cut_to_microseconds_in_python(self):
        sql = ("SELECT CAST('1969-12-31 23:59:59.999999999' AS TIMESTAMP(9)) AS a, "
               "CAST('2026-01-01 00:00:00.123456789' AS TIMESTAMP(9)) AS b")
        _, formats, rows, _ = read_stream(self.t_env.execute_sql(sql).__arrow_c_stream__(),
                                          self.check)
        self.assertEqual(formats, ["tsn:", "tsn:"])
        # Nanoseconds since the epoch, by hand: 2026-01-01 is 1767225600 s after it.
        self.assertEqual(rows, [(-1, 1767225600 * 10 ** 9 + 123456789)])
        # Python's datetime holds microseconds: the value is cut (floored) to them.
        self.assertEqual(self.rows(sql), [(datetime.datetime(1969, 12, 31, 23, 59, 59, 999999),
                                           datetime.datetime(2026, 1, 1, 0, 0, 0, 123456))])

    def test_write_rows_takes_an_arrow_stream(self):
        source = self.t_env.execute_sql("SELECT id, s FROM t WHERE id <> 2")
        snapshots = list(self.t_env.write_rows("copy", source).collect())
        self.assertEqual(len(snapshots), 1)
        self.assertEqual(sorted(self.rows("SELECT id, s FROM copy")),
                         [(1, "one"), (3, "\u00e9t\u00e9")])


if __name__ == "__main__":
    unittest.main()
