#pragma once

// Shared by the scalar tests: a small batch of sample rows (with nulls) that DuckDB can build
// from the same VALUES, evaluation of an expression text over it, and the cells as text in a form
// both engines agree on, so that results can be compared with DuckDB's.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/batch/value.h"
#include "floe/sql/scalar/decimal_internal.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/syntax/parser.h"
#include "floe/testing/peers.h"
#include "floe/util/calendar.h"
#include "floe/util/json.h"

namespace floe::sql::scalar::testing {

// Columns: i INT, j INT, x DOUBLE, s STRING, dt DATE, ts TIMESTAMP(6), dec DECIMAL(10, 2),
// b BOOLEAN.
inline RecordBatch SampleBatch() {
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      {"i", DataType::Int32()},
      {"j", DataType::Int32()},
      {"x", DataType::Float64()},
      {"s", DataType::String()},
      {"dt", DataType::Date32()},
      {"ts", DataType::Timestamp(TimeUnit::kMicro, false)},
      {"dec", DataType::Decimal128(10, 2)},
      {"b", DataType::Bool()},
  });
  auto day = [](int y, int m, int d) {
    return DateValue{static_cast<int32_t>(DaysFromCivil(y, m, d))};
  };
  auto ts = [](int y, int m, int d, int h, int mi, int s, int us) {
    return TimestampValue{
        DaysFromCivil(y, m, d) * 86'400'000'000LL + ((h * 60LL + mi) * 60 + s) * 1'000'000 + us,
        TimeUnit::kMicro, false};
  };
  std::vector<std::vector<Value>> columns = {
      {Value(1), Value(-7), Value(), Value(2147483000), Value(0), Value(12)},
      {Value(2), Value(2), Value(5), Value(1), Value(), Value(-5)},
      {Value(1.5), Value(-2.25), Value(0.0), Value(), Value(1e10), Value(-0.5)},
      {Value("abc"), Value("Hello World"), Value(""), Value(), Value("  pad  "), Value("a_b%c")},
      {Value(day(2024, 1, 31)), Value(day(1999, 12, 31)), Value(), Value(day(2024, 2, 29)),
       Value(day(1970, 1, 1)), Value(day(1969, 7, 20))},
      {Value(ts(2024, 1, 31, 10, 30, 0, 123456)), Value(ts(1999, 12, 31, 23, 59, 59, 999999)),
       Value(ts(2024, 2, 29, 0, 0, 0, 0)), Value(), Value(ts(1970, 1, 1, 0, 0, 0, 1)),
       Value(ts(1969, 7, 20, 20, 17, 40, 0))},
      {Value(DecimalValue{1234, 10, 2}), Value(DecimalValue{-505, 10, 2}), Value(),
       Value(DecimalValue{99999999, 10, 2}), Value(DecimalValue{5, 10, 2}),
       Value(DecimalValue{-1, 10, 2})},
      {Value(true), Value(false), Value(), Value(true), Value(false), Value()},
  };
  std::vector<Array> arrays;
  for (int c = 0; c < schema->num_fields(); ++c) {
    arrays.push_back(*MakeArray(schema->field(c).type, columns[c]));
  }
  return *RecordBatch::Make(schema, std::move(arrays));
}

// The same rows for DuckDB.
inline std::string SampleValuesSql() {
  return "(VALUES "
         "(1::INT, 2::INT, 1.5::DOUBLE, 'abc'::VARCHAR, DATE '2024-01-31', "
         "TIMESTAMP '2024-01-31 10:30:00.123456', 12.34::DECIMAL(10,2), true),"
         "(-7, 2, -2.25, 'Hello World', DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59.999999', "
         "-5.05, false),"
         "(NULL, 5, 0.0, '', NULL, TIMESTAMP '2024-02-29 00:00:00', NULL, NULL),"
         "(2147483000, 1, NULL, NULL, DATE '2024-02-29', NULL, 999999.99, true),"
         "(0, NULL, 1e10, '  pad  ', DATE '1970-01-01', TIMESTAMP '1970-01-01 00:00:00.000001', "
         "0.05, false),"
         "(12, -5, -0.5, 'a_b%c', DATE '1969-07-20', TIMESTAMP '1969-07-20 20:17:40', -0.01, NULL)"
         ") t(i, j, x, s, dt, ts, dec, b)";
}

inline std::string StripFraction(std::string text) {
  // "10:30:00.500000" and "10:30:00.5" are the same instant.
  const size_t colon = text.rfind(':');
  const size_t point = text.rfind('.');
  if (colon != std::string::npos && point != std::string::npos && point > colon) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

// A cell as text: NULL, true/false, integers and decimals in digits, dates ISO, timestamps
// "yyyy-mm-dd hh:mm:ss[.ffffff]", doubles as %.17g.
inline std::string CellText(const Array& array, int64_t row) {
  Value value = GetValue(array, row);
  if (value.is_null()) return "NULL";
  if (value.is<bool>()) return value.get<bool>() ? "true" : "false";
  if (value.is<int64_t>()) return std::to_string(value.get<int64_t>());
  if (value.is<double>() || value.is<float>()) {
    const double d = value.is<double>() ? value.get<double>() : value.get<float>();
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", d);
    return buffer;
  }
  if (value.is<DecimalValue>()) {
    return DecimalToString(value.get<DecimalValue>().unscaled, value.get<DecimalValue>().scale);
  }
  if (value.is<std::string>()) return value.get<std::string>();
  if (value.is<DateValue>()) {
    std::string out;
    AppendIsoDate(out, value.get<DateValue>().days);
    return out;
  }
  if (value.is<TimeValue>()) {
    std::string out;
    AppendIsoTimeOfDay(out, value.get<TimeValue>().value, 1'000'000);
    return StripFraction(out);
  }
  if (value.is<TimestampValue>()) {
    const TimestampValue& t = value.get<TimestampValue>();
    std::string out;
    AppendIsoTimestamp(out, t.value, t.unit == TimeUnit::kNano ? 1'000'000'000 : 1'000'000, false);
    out[10] = ' ';
    return StripFraction(out);
  }
  return value.ToJson();
}

// Equal as texts, or as numbers within a relative 1e-9 (DuckDB may type a result as DOUBLE
// where Flink keeps a DECIMAL).
inline bool SameCell(const std::string& a, const std::string& b) {
  if (StripFraction(a) == StripFraction(b)) return true;
  char* end_a = nullptr;
  char* end_b = nullptr;
  const double x = std::strtod(a.c_str(), &end_a);
  const double y = std::strtod(b.c_str(), &end_b);
  if (a.empty() || b.empty() || *end_a || *end_b) return false;
  return std::fabs(x - y) <= 1e-9 * std::max({1.0, std::fabs(x), std::fabs(y)});
}

// The column of an expression over the sample batch, as CellText per row (or the error text).
inline std::vector<std::string> EvalSample(std::string_view sql) {
  RecordBatch batch = SampleBatch();
  Result<ExprPtr> parsed = ParseExpression(sql);
  if (!parsed) return {"PARSE ERROR: " + parsed.error().message()};
  Result<ScalarExprPtr> bound = BindScalar(**parsed, Scope::ForSchema(*batch.schema(), "t"));
  if (!bound) return {"BIND ERROR: " + bound.error().message()};
  Result<Array> out = (*bound)->Evaluate(batch);
  if (!out) return {"EVAL ERROR: " + out.error().message()};
  std::vector<std::string> cells;
  for (int64_t r = 0; r < out->length(); ++r) cells.push_back(CellText(*out, r));
  return cells;
}

// Runs `SELECT CAST((e) AS VARCHAR) AS c0, ... FROM <sample rows>` in DuckDB: one text (or
// "NULL") per row per expression.
inline Result<std::vector<std::vector<std::string>>> DuckSample(
    const std::vector<std::string>& expressions) {
  std::string sql = "SELECT ";
  for (size_t k = 0; k < expressions.size(); ++k) {
    if (k) sql += ", ";
    sql += fmt::format("CAST(({}) AS VARCHAR) AS c{}", expressions[k], k);
  }
  sql += " FROM " + SampleValuesSql();
  FLOE_ASSIGN_OR_RETURN(std::string out, floe::testing::RunPeer("duck", {sql}));
  std::vector<std::vector<std::string>> columns(expressions.size());
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    std::string_view line(out.data() + start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    FLOE_ASSIGN_OR_RETURN(Json row, Json::Parse(line));
    for (size_t k = 0; k < expressions.size(); ++k) {
      const Json* cell = row.Find(fmt::format("c{}", k));
      columns[k].push_back(!cell || cell->is_null() ? "NULL" : cell->as_string());
    }
  }
  return columns;
}

}  // namespace floe::sql::scalar::testing
