// `floe convert IN OUT`: CSV (with a header), JSON lines or Parquet into Parquet. Text column types
// are inferred from the first rows (int64, float64, bool, date, timestamp, timestamptz, else
// string) or given with --schema; empty CSV fields and JSON nulls are nulls. A later value that
// does not fit the column's type fails with its line number. Parquet input is copied batch by
// batch with its schema.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/cli/command_line_io.h"
#include "floe/cli/commands.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/format/text/csv_reader.h"
#include "floe/io/file_io.h"
#include "floe/stream/connectors/text_columns.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using stream::InferTextColumnType;
using stream::ParseTextSchema;
using stream::TextColumnType;

constexpr size_t kInferRows = 1000;
constexpr int64_t kBatchRows = 65536;
// A row group holds its compressed pages in memory until it is written (a column chunk must be
// contiguous), so its size bounds the writer's memory. Iceberg tables use their
// write.parquet.row-group-size-bytes (128 MB by default); a converted file is not a table's.
constexpr int64_t kConvertRowGroupBytes = 32LL << 20;

// Text cells of one record; a cell whose data() is null is a null (JSON null, empty CSV field).
using Cells = std::vector<std::string_view>;

Result<std::unique_ptr<parquet::ParquetWriter>> OpenWriter(const std::string& out,
                                                           BatchSchemaPtr schema,
                                                           parquet::WriterOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto output, CommandLineFileIO()->NewOutputFile(out));
  FLOE_ASSIGN_OR_RETURN(auto file, output->CreateOrOverwrite());
  return parquet::ParquetWriter::Make(std::move(file), std::move(schema), std::move(options));
}

// Builds batches of text cells parsed to the column types and writes them.
class Converter {
 public:
  Status Start(const std::vector<std::string>& names, std::vector<TextColumnType> types,
               const std::string& out, parquet::WriterOptions options) {
    types_ = std::move(types);
    std::vector<Field> fields;
    for (size_t c = 0; c < names.size(); ++c) {
      fields.push_back(Field{names[c], types_[c].ToDataType(), true, static_cast<int32_t>(c + 1)});
    }
    schema_ = std::make_shared<BatchSchema>(std::move(fields));
    FLOE_ASSIGN_OR_RETURN(writer_, OpenWriter(out, schema_, std::move(options)));
    Reset();
    return {};
  }

  Status Add(const Cells& cells, int64_t line_number) {
    if (cells.size() != types_.size()) {
      return InvalidArgument("line {}: {} fields, the header has {}", line_number, cells.size(),
                             types_.size());
    }
    for (size_t c = 0; c < cells.size(); ++c) {
      ArrayBuilder& builder = *builders_[c];
      if (cells[c].data() == nullptr) {
        builder.AppendNull();
        continue;
      }
      Status appended = types_[c].Append(cells[c], builder);
      if (!appended) {
        return InvalidArgument("line {}: column {}: {}", line_number, schema_->field(c).name,
                               appended.error().message());
      }
    }
    if (++rows_ == kBatchRows) return Flush();
    return {};
  }

  Result<parquet::WriteResult> Finish() {
    FLOE_RETURN_IF_ERROR(Flush());
    return writer_->Close();
  }

 private:
  void Reset() {
    builders_.clear();
    for (const Field& field : schema_->fields()) {
      builders_.push_back(MakeBuilder(field.type));
      builders_.back()->Reserve(kBatchRows);
    }
    rows_ = 0;
  }

  Status Flush() {
    if (rows_ == 0) return {};
    std::vector<Array> columns;
    for (auto& builder : builders_) {
      FLOE_ASSIGN_OR_RETURN(Array array, builder->Finish());
      columns.push_back(std::move(array));
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema_, std::move(columns)));
    FLOE_RETURN_IF_ERROR(writer_->Write(batch));
    Reset();
    return {};
  }

  std::vector<TextColumnType> types_;
  BatchSchemaPtr schema_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;
  int64_t rows_ = 0;
};

// One JSON object as text cells (kept in storage); names come from the first line.
Status JsonCells(std::string_view line, std::vector<std::string>& names, int64_t line_number,
                 std::vector<std::optional<std::string>>& storage) {
  FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(line));
  if (!json.is_object()) return InvalidArgument("line {}: not a JSON object", line_number);
  bool first = names.empty();
  storage.assign(first ? 0 : names.size(), std::nullopt);
  for (const auto& [key, value] : json.as_object()) {
    size_t column;
    if (first) {
      names.push_back(key);
      storage.emplace_back();
      column = names.size() - 1;
    } else {
      auto it = std::ranges::find(names, key);
      if (it == names.end()) {
        return InvalidArgument("line {}: key '{}' is not in the first line", line_number, key);
      }
      column = static_cast<size_t>(it - names.begin());
    }
    switch (value.kind()) {
      case Json::Kind::kNull:
        break;
      case Json::Kind::kBool:
        storage[column] = value.as_bool() ? "true" : "false";
        break;
      case Json::Kind::kInt:
        storage[column] = std::to_string(value.as_int());
        break;
      case Json::Kind::kDouble:
        storage[column] = fmt::format("{}", value.as_double());
        break;
      case Json::Kind::kString:
        storage[column] = value.as_string();
        break;
      default:
        return InvalidArgument(
            "line {}: key '{}' holds a nested value, which convert does not "
            "take",
            line_number, key);
    }
  }
  return {};
}

// Reads records of CSV or JSON lines as text cells.
class TextSource {
 public:
  static Result<TextSource> Open(const std::string& path) {
    TextSource source;
    source.json_ = path.ends_with(".jsonl") || path.ends_with(".json") || path.ends_with(".ndjson");
    if (source.json_) {
      source.lines_ = std::make_unique<std::ifstream>(path, std::ios::binary);
      if (!*source.lines_) return NotFound("{}: cannot open", path);
      return source;
    }
    FLOE_ASSIGN_OR_RETURN(source.csv_, text::CsvReader::OpenPath(path));
    Cells header;
    FLOE_ASSIGN_OR_RETURN(bool any, source.csv_->Next(header));
    if (!any) return InvalidArgument("{}: empty, no header", path);
    source.names_.assign(header.begin(), header.end());
    return source;
  }

  // The next record; false at the end. Cells stay valid until the next call.
  Result<bool> Next(Cells& cells) {
    if (!json_) {
      FLOE_ASSIGN_OR_RETURN(bool any, csv_->Next(cells));
      if (!any) return false;
      for (auto& cell : cells) {
        if (cell.empty()) cell = {};
      }
      return true;
    }
    while (std::getline(*lines_, line_)) {
      ++line_number_;
      if (line_.empty() || line_ == "\r") continue;
      FLOE_RETURN_IF_ERROR(JsonCells(line_, names_, line_number_, json_cells_));
      cells.clear();
      for (const auto& cell : json_cells_) {
        cells.push_back(cell ? std::string_view(*cell) : std::string_view());
      }
      return true;
    }
    return false;
  }

  int64_t line_number() const { return json_ ? line_number_ : csv_->line_number(); }
  // The header (CSV), or the keys of the first record (JSON lines, after the first Next).
  const std::vector<std::string>& names() const { return names_; }

 private:
  bool json_ = false;
  std::unique_ptr<text::CsvReader> csv_;
  std::unique_ptr<std::ifstream> lines_;
  std::string line_;
  int64_t line_number_ = 0;
  std::vector<std::optional<std::string>> json_cells_;
  std::vector<std::string> names_;
};

Result<parquet::WriteResult> ConvertText(const std::string& in, const std::string& out,
                                         const std::string& schema_text,
                                         parquet::WriterOptions options) {
  FLOE_ASSIGN_OR_RETURN(TextSource source, TextSource::Open(in));
  // The sample is kept as owned text: the source's views move on with each record.
  std::vector<std::vector<std::optional<std::string>>> sample;
  std::vector<int64_t> sample_lines;
  Cells cells;
  while (sample.size() < kInferRows) {
    FLOE_ASSIGN_OR_RETURN(bool any, source.Next(cells));
    if (!any) break;
    auto& row = sample.emplace_back();
    for (std::string_view cell : cells) {
      row.push_back(cell.data() ? std::optional<std::string>(cell) : std::nullopt);
    }
    sample_lines.push_back(source.line_number());
  }
  const std::vector<std::string>& names = source.names();
  if (names.empty()) return InvalidArgument("{}: no columns", in);
  FLOE_ASSIGN_OR_RETURN(auto given, ParseTextSchema(schema_text));
  std::vector<TextColumnType> types;
  for (size_t c = 0; c < names.size(); ++c) {
    auto it = given.find(names[c]);
    if (it != given.end()) {
      types.push_back(it->second);
      given.erase(it);
      continue;
    }
    std::vector<std::string_view> column;
    for (const auto& row : sample) {
      // Short rows are reported by Converter::Add, with their line number.
      if (c < row.size() && row[c]) column.push_back(*row[c]);
    }
    types.push_back(InferTextColumnType(column));
  }
  if (!given.empty()) {
    return InvalidArgument("--schema names column '{}', which the input lacks",
                           given.begin()->first);
  }
  Converter converter;
  FLOE_RETURN_IF_ERROR(converter.Start(names, std::move(types), out, std::move(options)));
  for (size_t i = 0; i < sample.size(); ++i) {
    cells.clear();
    for (const auto& cell : sample[i]) {
      cells.push_back(cell ? std::string_view(*cell) : std::string_view());
    }
    FLOE_RETURN_IF_ERROR(converter.Add(cells, sample_lines[i]));
  }
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool any, source.Next(cells));
    if (!any) break;
    FLOE_RETURN_IF_ERROR(converter.Add(cells, source.line_number()));
  }
  return converter.Finish();
}

Result<parquet::WriteResult> ConvertParquet(const std::string& in, const std::string& out,
                                            parquet::WriterOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenParquetFile(in));
  FLOE_ASSIGN_OR_RETURN(auto writer, OpenWriter(out, reader->schema(), std::move(options)));
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    FLOE_RETURN_IF_ERROR(writer->Write(*batch));
  }
  return writer->Close();
}

}  // namespace

void AddConvertCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "convert", "Convert CSV (with a header), JSON lines (.jsonl) or Parquet into a Parquet file");
  struct Args {
    std::string in, out, codec = "zstd", schema;
    std::optional<int> level;
    int64_t row_group_size = kConvertRowGroupBytes;
  };
  auto args = std::make_shared<Args>();
  command->add_option("IN", args->in, "The input file (.parquet, .jsonl, else CSV)")->required();
  command->add_option("OUT", args->out, "The Parquet file to write (replaced if it exists)")
      ->required();
  command->add_option("--codec", args->codec, "zstd, snappy, gzip, lz4_raw or uncompressed");
  command->add_option("--level", args->level, "The codec's compression level");
  command
      ->add_option("--row-group-size", args->row_group_size,
                   "Bytes of compressed pages a row group buffers before it is written")
      ->default_val(kConvertRowGroupBytes);
  command->add_option("--schema", args->schema,
                      "Types of text columns, e.g. 'id:long,price:decimal(15,2)' (Iceberg type "
                      "names); the others are inferred");
  command->callback([args, &exit_code] {
    std::map<std::string, std::string> properties{{"write.parquet.compression-codec", args->codec}};
    if (args->level) properties["write.parquet.compression-level"] = std::to_string(*args->level);
    properties["write.parquet.row-group-size-bytes"] = std::to_string(args->row_group_size);
    auto options = parquet::ParseWriterOptions(properties);
    if (!options) {
      fmt::print(stderr, "floe convert: {}\n", options.error().message());
      exit_code = kExitBadInput;
      return;
    }
    bool parquet_input = args->in.ends_with(".parquet");
    if (parquet_input && !args->schema.empty()) {
      fmt::print(stderr, "floe convert: --schema applies to CSV and JSON lines input only\n");
      exit_code = kExitBadInput;
      return;
    }
    auto result = parquet_input
                      ? ConvertParquet(args->in, args->out, std::move(*options))
                      : ConvertText(args->in, args->out, args->schema, std::move(*options));
    if (!result) {
      fmt::print(stderr, "floe convert: {}: {}\n", args->in, result.error().message());
      exit_code = kExitBadInput;
      return;
    }
    fmt::print("{} rows, {} bytes, {} row groups\n", result->row_count, result->file_size,
               result->split_offsets.size());
  });
}

}  // namespace floe::cli
