// `floe convert IN OUT`: CSV (with a header) or JSON lines into Parquet. Column types are inferred
// from the first rows (int64, float64, bool, else string); empty CSV fields and JSON nulls are
// nulls. A later value that does not fit the inferred type fails with its line number.

#include <charconv>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "floe/batch/builder.h"
#include "floe/cli/commands.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/file_io.h"
#include "floe/io/local_file_io.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

constexpr size_t kInferRows = 1000;
constexpr int64_t kBatchRows = 65536;

enum class Inferred : uint8_t { kInt, kDouble, kBool, kString };

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}
std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// One CSV record (RFC 4180 quoting, no line breaks inside fields).
Result<std::vector<std::string>> SplitCsv(std::string_view line, int64_t line_number) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back().push_back('"');
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back().push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back().push_back(c);
    }
  }
  if (quoted) return InvalidArgument("line {}: unterminated quote", line_number);
  return fields;
}

// Text cells (nullopt = null) as rows; the same path serves CSV and JSON lines.
using Row = std::vector<std::optional<std::string>>;

Inferred Infer(const std::vector<Row>& rows, size_t column) {
  bool ints = true, doubles = true, bools = true;
  for (const Row& row : rows) {
    // Short rows are reported by Converter::Add, with their line number.
    if (column >= row.size() || !row[column]) continue;
    const auto& cell = row[column];
    ints = ints && ParseInt(*cell).has_value();
    doubles = doubles && ParseDouble(*cell).has_value();
    bools = bools && (*cell == "true" || *cell == "false");
  }
  if (ints) return Inferred::kInt;
  if (doubles) return Inferred::kDouble;
  if (bools) return Inferred::kBool;
  return Inferred::kString;
}

class Converter {
 public:
  Status Start(std::vector<std::string> names, const std::vector<Row>& sample,
               std::unique_ptr<io::FileWriter> file, parquet::WriterOptions options) {
    std::vector<Field> fields;
    for (size_t c = 0; c < names.size(); ++c) {
      Inferred type = Infer(sample, c);
      types_.push_back(type);
      DataTypePtr data_type = type == Inferred::kInt      ? DataType::Int64()
                              : type == Inferred::kDouble ? DataType::Float64()
                              : type == Inferred::kBool   ? DataType::Bool()
                                                          : DataType::String();
      fields.push_back(Field{names[c], data_type, true, static_cast<int32_t>(c + 1)});
    }
    schema_ = std::make_shared<BatchSchema>(std::move(fields));
    FLOE_ASSIGN_OR_RETURN(writer_, parquet::ParquetWriter::Make(std::move(file), schema_,
                                                                std::move(options)));
    Reset();
    return {};
  }

  Status Add(const Row& row, int64_t line_number) {
    if (row.size() != types_.size()) {
      return InvalidArgument("line {}: {} fields, the header has {}", line_number, row.size(),
                             types_.size());
    }
    for (size_t c = 0; c < row.size(); ++c) {
      ArrayBuilder& builder = *builders_[c];
      if (!row[c]) {
        builder.AppendNull();
        continue;
      }
      const std::string& cell = *row[c];
      switch (types_[c]) {
        case Inferred::kInt: {
          auto v = ParseInt(cell);
          if (!v) return InvalidArgument("line {}: '{}' is not an integer", line_number, cell);
          static_cast<Int64Builder&>(builder).Append(*v);
          break;
        }
        case Inferred::kDouble: {
          auto v = ParseDouble(cell);
          if (!v) return InvalidArgument("line {}: '{}' is not a number", line_number, cell);
          static_cast<Float64Builder&>(builder).Append(*v);
          break;
        }
        case Inferred::kBool:
          if (cell != "true" && cell != "false") {
            return InvalidArgument("line {}: '{}' is not a boolean", line_number, cell);
          }
          static_cast<BooleanBuilder&>(builder).Append(cell == "true");
          break;
        case Inferred::kString:
          static_cast<StringBuilder&>(builder).Append(cell);
          break;
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
    for (const Field& field : schema_->fields()) builders_.push_back(MakeBuilder(field.type));
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

  std::vector<Inferred> types_;
  BatchSchemaPtr schema_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;
  int64_t rows_ = 0;
};

Result<Row> JsonRow(std::string_view line, std::vector<std::string>& names, int64_t line_number) {
  FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(line));
  if (!json.is_object()) return InvalidArgument("line {}: not a JSON object", line_number);
  bool first = names.empty();
  Row row(first ? 0 : names.size());
  for (const auto& [key, value] : json.as_object()) {
    size_t column;
    if (first) {
      names.push_back(key);
      row.emplace_back();
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
        row[column] = value.as_bool() ? "true" : "false";
        break;
      case Json::Kind::kInt:
        row[column] = std::to_string(value.as_int());
        break;
      case Json::Kind::kDouble:
        row[column] = fmt::format("{}", value.as_double());
        break;
      case Json::Kind::kString:
        row[column] = value.as_string();
        break;
      default:
        return InvalidArgument("line {}: key '{}' holds a nested value, which convert does not "
                               "take",
                               line_number, key);
    }
  }
  return row;
}

Result<parquet::WriteResult> Convert(const std::string& in, const std::string& out,
                                     parquet::WriterOptions options) {
  std::ifstream input(in, std::ios::binary);
  if (!input) return NotFound("{}: cannot open", in);
  bool json = in.ends_with(".jsonl") || in.ends_with(".json") || in.ends_with(".ndjson");
  std::vector<std::string> names;
  std::string line;
  int64_t line_number = 0;
  auto read_row = [&]() -> Result<std::optional<Row>> {
    while (std::getline(input, line)) {
      ++line_number;
      if (line.empty() || line == "\r") continue;
      if (json) {
        FLOE_ASSIGN_OR_RETURN(Row row, JsonRow(line, names, line_number));
        return row;
      }
      FLOE_ASSIGN_OR_RETURN(auto fields, SplitCsv(line, line_number));
      Row row;
      for (auto& field : fields) {
        row.push_back(field.empty() ? std::nullopt : std::optional<std::string>(std::move(field)));
      }
      return row;
    }
    return std::optional<Row>();
  };
  if (!json) {
    if (!std::getline(input, line)) return InvalidArgument("{}: empty, no header", in);
    ++line_number;
    FLOE_ASSIGN_OR_RETURN(names, SplitCsv(line, line_number));
  }
  std::vector<Row> sample;
  std::vector<int64_t> sample_lines;
  while (sample.size() < kInferRows) {
    FLOE_ASSIGN_OR_RETURN(auto row, read_row());
    if (!row) break;
    sample.push_back(std::move(*row));
    sample_lines.push_back(line_number);
  }
  if (names.empty()) return InvalidArgument("{}: no columns", in);
  io::LocalFileIO io;
  FLOE_ASSIGN_OR_RETURN(auto output, io.NewOutputFile(out));
  FLOE_ASSIGN_OR_RETURN(auto file, output->CreateOrOverwrite());
  Converter converter;
  FLOE_RETURN_IF_ERROR(converter.Start(names, sample, std::move(file), std::move(options)));
  for (size_t i = 0; i < sample.size(); ++i) {
    FLOE_RETURN_IF_ERROR(converter.Add(sample[i], sample_lines[i]));
  }
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto row, read_row());
    if (!row) break;
    FLOE_RETURN_IF_ERROR(converter.Add(*row, line_number));
  }
  return converter.Finish();
}

}  // namespace

void AddConvertCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "convert", "Convert CSV (with a header) or JSON lines (.jsonl) into a Parquet file");
  struct Args {
    std::string in, out, codec = "zstd";
    std::optional<int> level;
  };
  auto args = std::make_shared<Args>();
  command->add_option("IN", args->in, "The input file")->required();
  command->add_option("OUT", args->out, "The Parquet file to write (replaced if it exists)")
      ->required();
  command->add_option("--codec", args->codec, "zstd, snappy, gzip, lz4_raw or uncompressed");
  command->add_option("--level", args->level, "The codec's compression level");
  command->callback([args, &exit_code] {
    std::map<std::string, std::string> properties{{"write.parquet.compression-codec", args->codec}};
    if (args->level) properties["write.parquet.compression-level"] = std::to_string(*args->level);
    auto options = parquet::ParseWriterOptions(properties);
    if (!options) {
      fmt::print(stderr, "floe convert: {}\n", options.error().message());
      exit_code = kExitBadInput;
      return;
    }
    auto result = Convert(args->in, args->out, std::move(*options));
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
