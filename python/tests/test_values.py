"""Values of every type through floe and back to Python, checked against the same rows as
ClickHouse (an independent Iceberg reader) reads them: rows written by SQL INSERT and read with
collect(), and Python values written with write_rows."""

import datetime
import decimal
import json
import os
import unittest
import uuid

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

    # Lists and maps are left out: WriteRows compares a nested column's type with the table's
    # field ids included, so writing a list or map column fails once its table exists, even in
    # the write that created it (docs/python.md).
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


if __name__ == "__main__":
    unittest.main()
