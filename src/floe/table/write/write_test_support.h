#pragma once

// Shared by the writer tests: queries to the DuckDB peer as parsed rows, and a small table (schema,
// batches, writer context over a temp folder) to write through each layer.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/io/local_file_io.h"
#include "floe/table/write/writer_context.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::table::test {

// The rows DuckDB prints for a query (one JSON object per line), or an error when the peer is
// missing or the query fails.
inline Result<std::vector<Json>> Duck(const std::string& sql) {
  FLOE_ASSIGN_OR_RETURN(std::string out, floe::testing::RunPeer("duck", {sql}));
  std::vector<Json> rows;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    FLOE_ASSIGN_OR_RETURN(Json row, Json::Parse(line));
    rows.push_back(std::move(row));
  }
  return rows;
}

// A member as text: DuckDB prints 64-bit integers as strings and smaller ones as numbers.
inline std::string Text(const Json& row, std::string_view key) {
  const Json* v = row.Find(key);
  if (v == nullptr || v->is_null()) return "null";
  if (v->is_string()) return v->as_string();
  return v->Dump();
}
inline int64_t Int(const Json& row, std::string_view key) { return std::stoll(Text(row, key)); }

// Quoted list of paths for read_parquet([...]).
inline std::string PathList(const std::vector<manifest::DataFile>& files) {
  std::string out = "[";
  for (const auto& f : files) out += (out.size() > 1 ? ",'" : "'") + f.file_path + "'";
  return out + "]";
}

// A table of events: 1 id long (required), 2 ts timestamptz, 3 category string, 4 amount double.
struct EventsTable {
  floe::testing::TempDir dir;
  io::LocalFileIO io;
  std::map<std::string, std::string> properties;
  WriteProperties write;
  std::unique_ptr<OutputFileFactory> data_files;
  std::unique_ptr<OutputFileFactory> delete_files;
  SchemaPtr schema = std::make_shared<const Schema>(
      std::vector<NestedField>{types::Required(1, "id", types::Long()),
                               types::Optional(2, "ts", types::TimestampTz()),
                               types::Optional(3, "category", types::String()),
                               types::Optional(4, "amount", types::Double())},
      0, std::vector<int32_t>{1});
  BatchSchemaPtr batch_schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"id", DataType::Int64(), false, 1},
                         {"ts", DataType::Timestamp(TimeUnit::kMicro, true), true, 2},
                         {"category", DataType::String(), true, 3},
                         {"amount", DataType::Float64(), true, 4}});

  int contexts_ = 0;

  std::string location() const { return dir.path().string() + "/t"; }

  // A context over the temp folder with the given table properties.
  WriterContext Context(PartitionSpecPtr spec = nullptr,
                        std::map<std::string, std::string> props = {}) {
    properties = std::move(props);
    auto parsed = WriteProperties::Parse(properties);
    EXPECT_TRUE(parsed.has_value()) << parsed.error().ToString();
    write = *parsed;
    LocationProvider locations(location(), properties);
    // Each context names its files apart, so one table can be written several times.
    const std::string op = contexts_++ == 0 ? "op" : "op" + std::to_string(contexts_);
    data_files = std::make_unique<OutputFileFactory>(
        locations, OutputFileFactoryOptions{.partition_id = 1,
                                            .task_id = 2,
                                            .operation_id = op,
                                            .format = std::string(FileFormatName(write.format))});
    delete_files = std::make_unique<OutputFileFactory>(
        locations, OutputFileFactoryOptions{
                       .partition_id = 1, .task_id = 2, .operation_id = op, .suffix = "deletes"});
    auto metrics = MetricsConfig::Make(properties, *schema);
    EXPECT_TRUE(metrics.has_value()) << metrics.error().ToString();
    WriterContext context;
    context.io = &io;
    context.data_files = data_files.get();
    context.delete_files = delete_files.get();
    context.properties = &write;
    context.schema = schema;
    context.batch_schema = batch_schema;
    context.metrics = *metrics;
    context.spec = std::move(spec);
    return context;
  }

  // Rows (id, ts micros or null, category or null, amount or null) with optional row kinds.
  struct Row {
    int64_t id;
    std::optional<int64_t> ts;
    std::optional<std::string> category;
    std::optional<double> amount;
    RowKind kind = RowKind::kInsert;
  };
  RecordBatch Batch(const std::vector<Row>& rows, bool with_kinds = false) const {
    std::vector<Value> ids, ts, cats, amounts;
    std::vector<uint8_t> kinds;
    for (const Row& r : rows) {
      ids.emplace_back(r.id);
      ts.push_back(r.ts ? Value(TimestampValue{*r.ts, TimeUnit::kMicro, true}) : Value());
      cats.push_back(r.category ? Value(*r.category) : Value());
      amounts.push_back(r.amount ? Value(*r.amount) : Value());
      kinds.push_back(static_cast<uint8_t>(r.kind));
    }
    std::vector<Array> columns{*MakeArray(DataType::Int64(), ids),
                               *MakeArray(DataType::Timestamp(TimeUnit::kMicro, true), ts),
                               *MakeArray(DataType::String(), cats),
                               *MakeArray(DataType::Float64(), amounts)};
    std::optional<Buffer> kind_buffer;
    if (with_kinds) kind_buffer = Buffer::CopyOf(kinds.data(), static_cast<int64_t>(kinds.size()));
    auto batch = RecordBatch::Make(batch_schema, std::move(columns),
                                   static_cast<int64_t>(rows.size()), std::move(kind_buffer));
    EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
    return *batch;
  }
};

}  // namespace floe::table::test
