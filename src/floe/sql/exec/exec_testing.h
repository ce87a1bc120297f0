#pragma once

// Test-only helpers of the relational operators' tests: a random table with nulls in every
// column, jobs over it, and the same question asked of DuckDB over the same rows written to
// Parquet (the independent source). Rows of both sides are rendered as text cell by cell in one
// format: numbers and strings as DuckDB's VARCHAR casts print them, doubles with %.9g,
// timestamps as epoch microseconds, null as NULL.

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/data_stream.h"
#include "floe/testing/peers.h"
#include "floe/util/json.h"

namespace floe::sql::exec::testing {

// k_int int32 (8 values), k_str string (5 values), v_int int32, v_big int64, v_dbl double,
// v_dec decimal(10, 2), v_date date, v_ts timestamp, v_bool bool; about 1 value in 10 is null.
inline std::vector<RecordBatch> RandomTable(uint32_t seed, int batches, int rows_per_batch) {
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"k_int", DataType::Int32()},
                         {"k_str", DataType::String()},
                         {"v_int", DataType::Int32()},
                         {"v_big", DataType::Int64()},
                         {"v_dbl", DataType::Float64()},
                         {"v_dec", DataType::Decimal128(10, 2)},
                         {"v_date", DataType::Date32()},
                         {"v_ts", DataType::Timestamp(TimeUnit::kMicro, false)},
                         {"v_bool", DataType::Bool()}});
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  const char* words[] = {"apple", "Banana", "cherry", "date",
                         "\xc3\xa9"
                         "clair"};
  std::vector<RecordBatch> out;
  for (int b = 0; b < batches; ++b) {
    std::vector<std::unique_ptr<ArrayBuilder>> builders;
    for (const Field& field : schema->fields()) builders.push_back(MakeBuilder(field.type));
    for (int r = 0; r < rows_per_batch; ++r) {
      std::vector<Value> row = {
          Value(pick(8) - 3),
          Value(std::string(words[pick(5)])),
          Value(pick(2001) - 1000),
          Value(static_cast<int64_t>(rng()) * 1000003 - (int64_t{1} << 40)),
          Value(static_cast<double>(pick(100000)) / 64.0 - 700.0),
          Value(DecimalValue{pick(2000001) - 1000000, 10, 2}),
          Value(DateValue{18000 + pick(1000)}),
          Value(TimestampValue{int64_t{1'600'000'000'000'000} + int64_t{pick(1'000'000)} * 997,
                               TimeUnit::kMicro, false}),
          Value(pick(2) == 1)};
      for (size_t c = 0; c < row.size(); ++c) {
        Status status = AppendValue(*builders[c], pick(10) == 0 ? Value() : row[c]);
        if (!status) return {};
      }
    }
    std::vector<Array> columns;
    for (auto& builder : builders) columns.push_back(*builder->Finish());
    out.push_back(*RecordBatch::Make(schema, std::move(columns)));
  }
  return out;
}

inline Status WriteParquet(const std::filesystem::path& path,
                           const std::vector<RecordBatch>& batches) {
  io::LocalFileIO io;
  FLOE_ASSIGN_OR_RETURN(auto output, io.NewOutputFile(path.string()));
  FLOE_ASSIGN_OR_RETURN(auto file, output->CreateOrOverwrite());
  FLOE_ASSIGN_OR_RETURN(auto writer,
                        parquet::ParquetWriter::Make(std::move(file), batches[0].schema(), {}));
  for (const RecordBatch& batch : batches) FLOE_RETURN_IF_ERROR(writer->Write(batch));
  FLOE_RETURN_IF_ERROR(writer->Close());
  return {};
}

// One cell as the common text form.
inline std::string CellText(const Array& array, int64_t row) {
  if (array.IsNull(row)) return "NULL";
  switch (array.kind()) {
    case TypeKind::kFloat64:
      return fmt::format("{:.9g}", array.Value<double>(row));
    case TypeKind::kFloat32:
      return fmt::format("{:.9g}", array.Value<float>(row));
    case TypeKind::kTimestamp:
      return std::to_string(array.Value<int64_t>(row));
    case TypeKind::kString:
      return std::string(array.GetView(row));
    default: {
      std::string json = GetValue(array, row).ToJson();
      if (json.size() >= 2 && json.front() == '"') json = json.substr(1, json.size() - 2);
      return json;
    }
  }
}

inline std::string RowText(const RecordBatch& batch, int64_t row) {
  std::string line;
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c > 0) line += '|';
    line += CellText(batch.column(c), row);
  }
  return line;
}

// Every row (all must be inserts), in order.
inline std::vector<std::string> Rows(const std::vector<RecordBatch>& batches) {
  std::vector<std::string> rows;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) rows.push_back(RowText(batch, r));
  }
  return rows;
}

inline std::vector<std::string> SortedRows(const std::vector<RecordBatch>& batches) {
  std::vector<std::string> rows = Rows(batches);
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The columns of RandomTable as DuckDB output columns c0..c8, and their kinds for DuckRows.
constexpr const char* kAllColumns =
    "k_int AS c0, k_str AS c1, v_int AS c2, v_big AS c3, v_dbl AS c4, v_dec AS c5, v_date AS c6, "
    "v_ts AS c7, v_bool AS c8";
constexpr const char* kAllKinds = "vvvvdvvtv";

// Applies a changelog (+I/+U add a row, -U/-D remove one) and gives the rows left, sorted; a
// removal of a row that is not there is reported as a row "MISSING <row>".
inline std::vector<std::string> ApplyChangelog(const std::vector<RecordBatch>& batches) {
  std::map<std::string, int64_t> counts;
  std::vector<std::string> rows;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      RowKind kind = batch.row_kind(r);
      std::string text = RowText(batch, r);
      if (kind == RowKind::kInsert || kind == RowKind::kUpdateAfter) {
        ++counts[text];
      } else if (--counts[text] < 0) {
        rows.push_back("MISSING " + text);
      }
    }
  }
  for (const auto& [text, count] : counts) {
    for (int64_t i = 0; i < count; ++i) rows.push_back(text);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Kinds of output column for DuckDB: 'v' cast to VARCHAR, 'd' a double (%.9g), 't' a timestamp
// (epoch microseconds).
inline std::string DuckCell(std::string_view expr, char kind) {
  switch (kind) {
    case 'd':
      return fmt::format("printf('%.9g', {})", expr);
    case 't':
      return fmt::format("CAST(epoch_us({}) AS VARCHAR)", expr);
    default:
      return fmt::format("CAST({} AS VARCHAR)", expr);
  }
}

// Runs `query` (whose columns are c0, c1, ...) in DuckDB with `t` bound to the Parquet file and
// gives its rows in the common text form, sorted unless `in_order`. `t` has a column
// file_row_number: the row's position in the file (the order one source subtask reads it in).
inline Result<std::vector<std::string>> DuckRows(const std::filesystem::path& parquet,
                                                 const std::string& query, std::string_view kinds,
                                                 bool in_order = false) {
  std::string cells;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) cells += ", '|', ";
    cells += fmt::format("COALESCE({}, 'NULL')", DuckCell(fmt::format("c{}", i), kinds[i]));
  }
  std::string sql = fmt::format(
      "WITH t AS (SELECT * FROM read_parquet('{}', file_row_number = true)) SELECT concat({}) AS r "
      "FROM ({}) q",
      parquet.string(), cells, query);
  FLOE_ASSIGN_OR_RETURN(std::string text, floe::testing::RunPeer("duck", {sql}));
  std::vector<std::string> rows;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(line));
    FLOE_ASSIGN_OR_RETURN(const Json* r, json.Get("r"));
    rows.push_back(r->as_string());
  }
  if (!in_order) std::sort(rows.begin(), rows.end());
  return rows;
}

inline bool DuckAvailable() { return floe::testing::RunPeer("duck", {"SELECT 1"}).has_value(); }

// Runs a job that collects `build(env, source)` and gives the collected batches.
template <typename Build>
Result<std::vector<RecordBatch>> RunCollect(const std::vector<RecordBatch>& input,
                                            stream::ExecutionConfig config, Build&& build,
                                            int source_parallelism = 1) {
  stream::StreamEnvironment env(std::move(config));
  stream::DataStream source =
      env.FromSource(std::make_shared<stream::CollectionSource>(input[0].schema(), input), "source",
                     source_parallelism);
  FLOE_ASSIGN_OR_RETURN(stream::DataStream result, build(source));
  auto collected = env.Collect(result, "collect");
  FLOE_RETURN_IF_ERROR(env.Execute("test-job"));
  return collected->batches();
}

}  // namespace floe::sql::exec::testing
