"""Values of every type through floe and back to Python, checked against the same rows as
ClickHouse (an independent Iceberg reader) reads them: rows written by SQL INSERT and read with
collect(), and Python values written with write_rows."""

import collections
import datetime
import decimal
import json
import os
import unittest
import uuid

import floe
from support import TempDirTest, clickhouse

COLUMNS = ("id INT, b BOOLEAN, l BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(38,10), s STRING, "
           "bin VARBINARY, fx BINARY(4), dt DATE, tm TIME, ts TIMESTAMP(6), tz TIMESTAMP_LTZ(6), "
           "arr ARRAY<BIGINT>, m MAP<STRING,BIGINT>")
ROWS = [
    "(1, true, 9223372036854775807, CAST(1.5 AS FLOAT), -0.25, "
    "CAST('-1234567890123456789.0123456789' AS DECIMAL(38,10)), 'h\u00e9llo \u4e16\u754c', "
    "CAST('ab\u00ff' AS VARBINARY), CAST('wxyz' AS BINARY(4)), DATE '1969-12-31', "
    "TIME '23:59:59.999999', TIMESTAMP '1960-01-02 03:04:05.000001', "
    "TO_TIMESTAMP_LTZ(1700000000123, 3), ARRAY[CAST(1 AS BIGINT), -1], "
    "MAP['a', CAST(1 AS BIGINT), 'b', 2])",
    "(2, false, -9223372036854775808, CAST(-3.25 AS FLOAT), 1e300, "
    "CAST('0.0000000001' AS DECIMAL(38,10)), '', CAST('' AS VARBINARY), "
    "CAST('abcd' AS BINARY(4)), DATE '2026-12-02', TIME '00:00:00', "
    "TIMESTAMP '2262-04-11 23:47:16.854775', TO_TIMESTAMP_LTZ(0, 3), ARRAY[CAST(0 AS BIGINT)], "
    "MAP['k', CAST(-7 AS BIGINT)])",
    "(3, CAST(NULL AS BOOLEAN), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
    "NULL, NULL)",
]
# Each column as ClickHouse shows it exactly: text for what JSON would round.
CH_SELECT = ("SELECT id, b, toString(l) AS l, f, d, toString(dec) AS dec, s, hex(bin) AS bin, "
             "hex(fx) AS fx, toString(dt) AS dt, tm, toString(ts) AS ts, toString(tz) AS tz, "
             "arr, m FROM icebergLocal('{}') ORDER BY id")


def as_clickhouse(row):
    """A Python row in the form CH_SELECT gives (ClickHouse reads an Iceberg time as whole
    seconds of the day, a null array or map as empty)."""
    (id_, b, l, f, d, dec, s, bin_, fx, dt, tm, ts, tz, arr, m) = row
    text = lambda v, fn=str: None if v is None else fn(v)  # noqa: E731
    return {
        "id": id_, "b": b, "l": text(l), "f": f, "d": d,
        # ClickHouse drops a decimal's trailing zeros.
        "dec": text(dec, lambda v: format(v, "f").rstrip("0").rstrip(".") if "." in format(v, "f")
                    else format(v, "f")),
        "s": s, "bin": text(bin_, lambda v: v.hex().upper()), "fx": text(fx, lambda v: v.hex().upper()),
        "dt": text(dt), "tm": text(tm, lambda v: v.hour * 3600 + v.minute * 60 + v.second),
        "ts": text(ts, lambda v: v.strftime("%Y-%m-%d %H:%M:%S.%f")),
        "tz": text(tz, lambda v: v.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")),
        "arr": arr if arr is not None else [], "m": m if m is not None else {},
    }


class ValuesTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.warehouse = self.hadoop_catalog()
        self.t_env.get_config().set("execution.runtime-mode", "batch")

    def test_sql_rows_read_as_clickhouse_reads_them(self):
        self.t_env.execute_sql(f"CREATE TABLE v ({COLUMNS})")
        self.t_env.execute_sql("INSERT INTO v VALUES " + ", ".join(ROWS)).wait()
        result = self.t_env.execute_sql("SELECT * FROM v ORDER BY id")
        self.assertEqual(result.get_table_schema().get_field_data_types(), [
            "INT", "BOOLEAN", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(38, 10)", "STRING", "BYTES",
            "BINARY(4)", "DATE", "TIME", "TIMESTAMP(6)", "TIMESTAMP_LTZ(6)", "ARRAY<BIGINT>",
            "MAP<STRING, BIGINT>"])
        rows = [tuple(r) for r in result.collect()]
        # The Python types themselves.
        first = rows[0]
        self.assertIsInstance(first[5], decimal.Decimal)
        self.assertEqual(first[5], decimal.Decimal("-1234567890123456789.0123456789"))
        self.assertEqual(first[6], "h\u00e9llo \u4e16\u754c")
        self.assertEqual(first[7], "ab\u00ff".encode())
        self.assertEqual(first[9], datetime.date(1969, 12, 31))
        self.assertEqual(first[10], datetime.time(23, 59, 59, 999999))
        self.assertEqual(first[11], datetime.datetime(1960, 1, 2, 3, 4, 5, 1))
        self.assertEqual(first[12], datetime.datetime(2023, 11, 14, 22, 13, 20, 123000,
                                                      tzinfo=datetime.timezone.utc))
        self.assertEqual(first[13], [1, -1])
        self.assertEqual(first[14], {"a": 1, "b": 2})
        self.assertEqual(rows[2][1:], (None,) * 14)
        peer = [json.loads(line) for line in
                clickhouse(CH_SELECT.format(os.path.join(self.warehouse, "db", "v"))).splitlines()]
        self.assertEqual([as_clickhouse(r) for r in rows], peer)

    def test_python_values_written_with_write_rows(self):
        tz = datetime.timezone(datetime.timedelta(hours=2))
        values = [
            {"id": 1, "b": True, "l": -(2 ** 63), "d": 2.5, "dec": decimal.Decimal("12.5"),
             "s": "\u00e9", "bin": b"\x00\xff", "u": uuid.UUID("12345678-1234-5678-1234-567812345678"),
             "dt": datetime.date(2000, 2, 29), "tm": datetime.time(12, 0, 1, 5),
             "ts": datetime.datetime(1999, 12, 31, 23, 59, 59, 999999),
             "tz": datetime.datetime(2026, 1, 1, 2, 0, tzinfo=tz)},
            {"id": 2, "b": None, "l": 0, "d": None, "dec": decimal.Decimal("-0.001"), "s": None,
             "bin": None, "u": None, "dt": None, "tm": None, "ts": None, "tz": None},
        ]
        snapshots = list(self.t_env.write_rows("w", values).collect())
        self.assertEqual(len(snapshots), 1)
        self.assertEqual(snapshots[0].table, "db.w")
        self.assertEqual(snapshots[0].operation, "append")
        back = [r.as_dict() for r in self.t_env.execute_sql("SELECT * FROM w ORDER BY id").collect()]
        expected = [dict(v) for v in values]
        expected[0]["dec"] = decimal.Decimal("12.500")  # the column's scale: the largest, 3
        expected[1]["dec"] = decimal.Decimal("-0.001")
        expected[0]["u"] = values[0]["u"].bytes          # BINARY(16), Flink's form of a uuid
        expected[0]["tz"] = datetime.datetime(2026, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)
        self.assertEqual(back, expected)
        peer = [json.loads(line) for line in clickhouse(
            "SELECT id, toString(l) AS l, toString(dec) AS dec, hex(u) AS u, toString(dt) AS dt, "
            "toString(ts) AS ts, toString(tz) AS tz FROM icebergLocal('{}') ORDER BY id"
            .format(os.path.join(self.warehouse, "db", "w"))).splitlines()]
        self.assertEqual(peer[0], {"id": 1, "l": str(-(2 ** 63)), "dec": "12.5",
                                   "u": "12345678123456781234567812345678", "dt": "2000-02-29",
                                   "ts": "1999-12-31 23:59:59.999999",
                                   "tz": "2026-01-01 00:00:00.000000"})
        self.assertEqual(peer[1]["dec"], "-0.001")
        self.assertIsNone(peer[1]["u"])


Point = collections.namedtuple("Point", ["a", "b"])
NESTED = [
    {"id": 1, "arr": [1, None, -3], "m": {"x": 1, "y": None}, "r": floe.Row(a=7, b="seven"),
     "ra": [Point(1, "p"), Point(2, None)]},
    {"id": 2, "arr": [], "m": {}, "r": floe.Row(a=None, b="none"), "ra": []},
    {"id": 3, "arr": None, "m": None, "r": None, "ra": None},
]
MORE_NESTED = [{"id": 4, "arr": [4], "m": {"z": 4}, "r": floe.Row(a=4, b="four"),
                "ra": [Point(4, "q")]}]


def nested_as_clickhouse(row):
    """A NESTED row as CH_NESTED gives it (ClickHouse reads a null array or map as empty, a
    null struct as a tuple of nulls, a named tuple as an object)."""
    r = row["r"] or floe.Row(a=None, b=None)
    return {"id": row["id"], "arr": row["arr"] or [], "m": row["m"] or {}, "ra": [
        {"a": p.a, "b": p.b} for p in row["ra"] or []], "r_a": r.a, "r_b": r.b}


CH_NESTED = ("SELECT id, arr, m, ra, r.a AS r_a, r.b AS r_b FROM icebergLocal('{}') "
             "ORDER BY id")


class NestedValuesTest(TempDirTest):
    """Lists, maps and rows (floe.Row by names, a namedtuple) from Python through write_rows,
    into a table write_rows makes and into one SQL made (its own field ids), back through
    collect() and as ClickHouse reads them."""

    def setUp(self):
        super().setUp()
        self.warehouse = self.hadoop_catalog()
        self.t_env.get_config().set("execution.runtime-mode", "batch")

    def check_table(self, name, rows):
        back = [r.as_dict() for r in self.t_env.execute_sql(
            f"SELECT id, arr, m, r, ra FROM {name} ORDER BY id").collect()]
        self.assertEqual(back, [dict(row) for row in rows])
        first = back[0]
        self.assertIsInstance(first["r"], floe.Row)
        self.assertEqual((first["r"].a, first["r"]["b"]), (7, "seven"))
        self.assertEqual(first["r"].as_dict(), rows[0]["r"].as_dict())
        self.assertEqual([p.as_dict() for p in first["ra"]],
                         [{"a": 1, "b": "p"}, {"a": 2, "b": None}])
        self.assertEqual(self.rows(f"SELECT r.b, ra[1].a FROM {name} WHERE id = 1"),
                         [("seven", 1)])
        peer = [json.loads(line) for line in clickhouse(CH_NESTED.format(
            os.path.join(self.warehouse, "db", name))).splitlines()]
        self.assertEqual(peer, [nested_as_clickhouse(row) for row in rows])

    def test_into_a_table_write_rows_makes(self):
        self.t_env.write_rows("made", NESTED)
        self.t_env.write_rows("made", MORE_NESTED)
        self.assertEqual(self.t_env.execute_sql("SELECT * FROM made").get_table_schema()
                         .get_field_data_types(),
                         ["BIGINT", "ARRAY<BIGINT>", "MAP<STRING, BIGINT>",
                          "ROW<a BIGINT, b STRING>", "ARRAY<ROW<a BIGINT, b STRING>>"])
        self.check_table("made", NESTED + MORE_NESTED)

    def test_into_a_table_sql_made(self):
        self.t_env.execute_sql(
            "CREATE TABLE n (id BIGINT, ra ARRAY<ROW<b STRING, a BIGINT>>, r ROW<b STRING, "
            "a BIGINT, c DOUBLE>, m MAP<STRING, BIGINT>, arr ARRAY<BIGINT>)")
        # Fields by name: columns and struct fields in another order than the table's, the
        # table's c left null.
        self.t_env.write_rows("n", NESTED + MORE_NESTED)
        self.assertEqual(self.rows("SELECT r.c FROM n"), [(None,)] * 4)
        self.check_table("n", [dict(row, r=row["r"] and floe.Row(b=row["r"].b, a=row["r"].a,
                                                                  c=None),
                                    ra=row["ra"] and [floe.Row(b=p.b, a=p.a) for p in row["ra"]])
                               for row in NESTED + MORE_NESTED])

    def test_rows_that_do_not_fit_are_refused(self):
        self.t_env.write_rows("made", NESTED)
        with self.assertRaisesRegex(floe.InvalidArgumentError,
                                    "'r' is struct<.*the table has no field 'z'"):
            self.t_env.write_rows("made", [{"id": 5, "r": floe.Row(a=1, z="x")}])
        with self.assertRaisesRegex(floe.InvalidArgumentError,
                                    "'arr.element' is long in the table, the rows hold string"):
            self.t_env.write_rows("made", [{"id": 5, "arr": ["x"]}])
        with self.assertRaisesRegex(floe.InvalidArgumentError,
                                    r"row 1, column 'r': a row of fields \(a, c\) in a column "
                                    r"of rows of fields \(a, b\)"):
            self.t_env.write_rows("made", [{"r": floe.Row(a=1, b="x")},
                                           {"r": floe.Row(a=1, c="x")}])
        self.assertEqual(len(self.rows("SELECT * FROM made")), 3)  # nothing more committed


if __name__ == "__main__":
    unittest.main()
