#pragma once

// What the DataStream examples share, so that each main() stays as short as the Java it mirrors:
// the table they write (hadoop folder layout, format v2: id long, the identifier field, and data
// string), input rows given on the command line as "id:data", and a print sink that writes rows in
// Flink's print format ("+I[1, a]") and, for the streaming reads (which run until cancelled, as in
// Flink), can cancel the job after a number of rows.
//
// What can go wrong: a folder that is not <warehouse>/<db>/<table>, a row argument without ':' or
// with an id that is not a number (kInvalidArgument naming it).

#include <charconv>
#include <cstdint>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/spec/schema.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/table_loader.h"

namespace floe::examples {

inline BatchSchemaPtr RowSchema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64(), false, 1}, {"data", DataType::String(), true, 2}});
}

inline Status CreateTableIfMissing(const std::string& folder) {
  if (stream::TableLoader::FromFolder(folder).Load()) return {};
  FLOE_ASSIGN_OR_RETURN(catalog::FolderTable table, catalog::OpenTableFolder(folder));
  Status ns = table.catalog->CreateNamespace(table.ident.ns, {});
  if (!ns && ns.error().kind() != ErrorKind::kAlreadyExists) return ns;
  catalog::CreateTableRequest request;
  using namespace floe::types;
  request.schema = std::make_shared<Schema>(
      std::vector<NestedField>{Required(1, "id", Long()), Optional(2, "data", String())}, 0,
      std::vector<int32_t>{1});
  request.properties.emplace("format-version", "2");
  auto created = table.catalog->CreateTable(table.ident, request);
  if (!created) return std::unexpected(created.error());
  return {};
}

// "id:data" arguments as a stream of rows.
inline Result<stream::DataStream> RowsFromArgs(stream::StreamEnvironment& env,
                                               const std::vector<std::string>& args) {
  std::vector<Value> ids, data;
  for (const std::string& arg : args) {
    size_t colon = arg.find(':');
    int64_t id = 0;
    auto parsed = std::from_chars(arg.data(), arg.data() + std::min(colon, arg.size()), id);
    if (colon == std::string::npos || parsed.ec != std::errc() ||
        parsed.ptr != arg.data() + colon) {
      return InvalidArgument("row '{}': expected <id>:<data>", arg);
    }
    ids.emplace_back(id);
    data.emplace_back(arg.substr(colon + 1));
  }
  BatchSchemaPtr schema = RowSchema();
  FLOE_ASSIGN_OR_RETURN(Array id_column, MakeArray(DataType::Int64(), ids));
  FLOE_ASSIGN_OR_RETURN(Array data_column, MakeArray(DataType::String(), data));
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, {id_column, data_column}));
  return env.FromSource(
      std::make_shared<stream::CollectionSource>(schema, std::vector<RecordBatch>{batch}), "input",
      1);
}

// Prints every row of `stream` (one subtask, so lines never interleave); with stop_after, cancels
// the job once that many rows are printed.
inline void Print(const stream::DataStream& stream, std::optional<int64_t> stop_after = {}) {
  class PrintSink : public stream::Operator {
   public:
    PrintSink(stream::StreamEnvironment& env, std::optional<int64_t> stop_after)
        : env_(env), stop_after_(stop_after) {}
    Status ProcessBatch(int, RecordBatch batch, stream::Output&) override {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        if (stop_after_ && printed_ >= *stop_after_) break;
        std::cout << stream::FormatRow(batch, i) << "\n";
        if (++printed_ == stop_after_) env_.Cancel();
      }
      std::cout.flush();
      return {};
    }

   private:
    stream::StreamEnvironment& env_;
    std::optional<int64_t> stop_after_;
    int64_t printed_ = 0;
  };
  stream::StreamEnvironment& env = stream.environment();
  stream.SinkTo(
      "print",
      [&env, stop_after](int) -> Result<std::unique_ptr<stream::Operator>> {
        return std::make_unique<PrintSink>(env, stop_after);
      },
      1);
}

// A job cancelled by Print's stop_after ended as asked; anything else is reported.
inline int ExitCode(const Result<stream::JobResult>& result, const char* program) {
  if (result || result.error().kind() == ErrorKind::kCancelled) return 0;
  std::cerr << program << ": " << result.error().ToString() << "\n";
  return 1;
}

inline int Fail(const Error& error, const char* program) {
  std::cerr << program << ": " << error.ToString() << "\n";
  return 1;
}

inline int Fail(const std::unexpected<Error>& error, const char* program) {
  return Fail(error.error(), program);
}

}  // namespace floe::examples
