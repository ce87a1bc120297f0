#include "floe/stream/connectors/file_batch_reader.h"

#include <charconv>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/text/csv_reader.h"
#include "floe/format/text/line_reader.h"
#include "floe/stream/connectors/text_rows_internal.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

// Where a row's cells fail, for errors: "file: line N: reason".
Status AddRow(TextBatchBuilder& builder, std::span<const std::string_view> cells,
              std::string_view location, int64_t line) {
  Status added = builder.Add(cells);
  if (!added) return InvalidArgument("{}: line {}: {}", location, line, added.error().message());
  return Ok();
}

class CsvBatchReader : public FileBatchReader {
 public:
  CsvBatchReader(std::unique_ptr<io::InputFile> file, TextBatchBuilder builder, bool header)
      : csv_(std::move(file)), builder_(std::move(builder)), skip_header_(header) {}

  Result<std::optional<RecordBatch>> Next(int64_t max_rows) override {
    while (builder_.rows() < max_rows) {
      FLOE_ASSIGN_OR_RETURN(bool any, csv_.Next(cells_));
      if (!any) break;
      if (skip_header_) {
        skip_header_ = false;
        continue;
      }
      if (static_cast<int>(cells_.size()) != builder_.num_columns()) {
        return InvalidArgument("{}: line {}: {} fields, the schema has {} columns", csv_.location(),
                               csv_.line_number(), cells_.size(), builder_.num_columns());
      }
      for (auto& cell : cells_) {
        if (cell.empty()) cell = {};
      }
      FLOE_RETURN_IF_ERROR(AddRow(builder_, cells_, csv_.location(), csv_.line_number()));
    }
    return builder_.Finish();
  }

 private:
  text::CsvReader csv_;
  TextBatchBuilder builder_;
  bool skip_header_;
  std::vector<std::string_view> cells_;
};

class JsonBatchReader : public FileBatchReader {
 public:
  JsonBatchReader(std::unique_ptr<io::InputFile> file, TextBatchBuilder builder,
                  BatchSchemaPtr schema)
      : lines_(std::move(file)), builder_(std::move(builder)), schema_(std::move(schema)) {}

  Result<std::optional<RecordBatch>> Next(int64_t max_rows) override {
    std::string_view line;
    while (builder_.rows() < max_rows) {
      FLOE_ASSIGN_OR_RETURN(bool any, lines_.Next(line));
      if (!any) break;
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      FLOE_RETURN_IF_ERROR(ParseLine(line));
      FLOE_RETURN_IF_ERROR(AddRow(builder_, cells_, lines_.location(), lines_.line_number()));
    }
    return builder_.Finish();
  }

 private:
  Status ParseLine(std::string_view line) {
    auto json = Json::Parse(line);
    if (!json) {
      return InvalidArgument("{}: line {}: {}", lines_.location(), lines_.line_number(),
                             json.error().message());
    }
    if (!json->is_object()) {
      return InvalidArgument("{}: line {}: not a JSON object", lines_.location(),
                             lines_.line_number());
    }
    Status cells = JsonObjectCells(*json, *schema_, false, text_, cells_);
    if (!cells) {
      return InvalidArgument("{}: line {}: {}", lines_.location(), lines_.line_number(),
                             cells.error().message());
    }
    return Ok();
  }

  text::LineReader lines_;
  TextBatchBuilder builder_;
  BatchSchemaPtr schema_;
  std::vector<std::string> text_;
  std::vector<std::string_view> cells_;
};

class ParquetFileReader : public FileBatchReader {
 public:
  ParquetFileReader(std::unique_ptr<parquet::ParquetBatchReader> reader, BatchSchemaPtr schema,
                    std::string location)
      : reader_(std::move(reader)), schema_(std::move(schema)), location_(std::move(location)) {}

  Result<std::optional<RecordBatch>> Next(int64_t max_rows) override {
    if (!pending_ || pending_->num_rows() == 0) {
      FLOE_ASSIGN_OR_RETURN(pending_, reader_->Next());
      if (!pending_) return std::optional<RecordBatch>();
      if (*pending_->schema() != *schema_) {
        // Same columns, but the file may name or number them differently: the source's schema
        // is what downstream operators were built for.
        std::vector<Array> columns;
        for (int c = 0; c < pending_->num_columns(); ++c) columns.push_back(pending_->column(c));
        auto conformed = RecordBatch::Make(schema_, std::move(columns), pending_->num_rows());
        if (!conformed) {
          return std::unexpected(std::move(conformed.error().AddContext(location_)));
        }
        pending_ = std::move(*conformed);
      }
    }
    if (pending_->num_rows() <= max_rows) {
      std::optional<RecordBatch> batch = std::move(pending_);
      pending_.reset();
      return batch;
    }
    RecordBatch head = pending_->Slice(0, max_rows);
    pending_ = pending_->Slice(max_rows, pending_->num_rows() - max_rows);
    return std::optional<RecordBatch>(std::move(head));
  }

 private:
  std::unique_ptr<parquet::ParquetBatchReader> reader_;
  BatchSchemaPtr schema_;
  std::string location_;
  std::optional<RecordBatch> pending_;
};

}  // namespace

Result<std::unique_ptr<FileBatchReader>> OpenFileBatchReader(
    const FileSource& source, const std::string& location,
    std::optional<std::pair<int64_t, int64_t>> byte_range) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<io::InputFile> file, source.io().NewInputFile(location));
  switch (source.format()) {
    case FileSource::Format::kCsv: {
      FLOE_ASSIGN_OR_RETURN(TextBatchBuilder builder, TextBatchBuilder::Make(source.schema()));
      return std::make_unique<CsvBatchReader>(std::move(file), std::move(builder),
                                              source.csv_header());
    }
    case FileSource::Format::kJson: {
      FLOE_ASSIGN_OR_RETURN(TextBatchBuilder builder, TextBatchBuilder::Make(source.schema()));
      return std::make_unique<JsonBatchReader>(std::move(file), std::move(builder),
                                               source.schema());
    }
    case FileSource::Format::kParquet:
      break;
  }
  parquet::ReadOptions options;
  options.batch_rows = source.batch_size();
  options.select = source.schema()->fields();
  options.byte_range = byte_range;
  auto reader = parquet::ParquetBatchReader::Open(std::shared_ptr<io::InputFile>(std::move(file)),
                                                  std::move(options));
  if (!reader) return std::unexpected(std::move(reader.error().AddContext(location)));
  return std::make_unique<ParquetFileReader>(std::move(*reader), source.schema(), location);
}

}  // namespace floe::stream
