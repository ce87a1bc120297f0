#include "floe/format/orc/batch_reader.h"

#include "floe/format/parquet/reader/input_file_source.h"
#include "floe/format/parquet/source.h"

namespace floe::orc {

OrcBatchReader::OrcBatchReader(std::unique_ptr<OrcFileReader> file, ReadOptions options)
    : file_(std::move(file)), options_(std::move(options)) {}

Result<std::unique_ptr<OrcBatchReader>> OrcBatchReader::Open(std::unique_ptr<OrcFileReader> file,
                                                             ReadOptions options) {
  if (options.batch_rows <= 0) return InvalidArgument("batch_rows must be positive");
  auto reader = std::make_unique<OrcBatchReader>(std::move(file), std::move(options));
  FLOE_RETURN_IF_ERROR(reader->Init());
  return reader;
}

Result<std::unique_ptr<OrcBatchReader>> OrcBatchReader::Open(std::shared_ptr<io::InputFile> file,
                                                             ReadOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto source, parquet::MakeInputFileSource(std::move(file)));
  FLOE_ASSIGN_OR_RETURN(auto orc, OrcFileReader::Open(std::move(source), options.file));
  return Open(std::move(orc), std::move(options));
}

Result<std::unique_ptr<OrcBatchReader>> OrcBatchReader::OpenPath(const std::string& path,
                                                                 ReadOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto orc, OrcFileReader::OpenPath(path, options.file));
  return Open(std::move(orc), std::move(options));
}

Status OrcBatchReader::Init() {
  const BatchSchema& file_schema = *file_->schema();
  if (options_.select.empty()) {
    for (int i = 0; i < file_schema.num_fields(); ++i) {
      file_columns_.push_back(i);
      output_sources_.push_back(i);
    }
    schema_ = file_->schema();
    return Ok();
  }
  std::vector<Field> fields;
  for (const Field& wanted : options_.select) {
    const int index = wanted.field_id ? file_schema.FindFieldIndexById(*wanted.field_id)
                                      : file_schema.FindFieldIndex(wanted.name);
    if (index < 0) {
      output_sources_.push_back(-1);
      fields.push_back(
          Field{wanted.name, wanted.type ? wanted.type : DataType::Null(), true, wanted.field_id});
      continue;
    }
    output_sources_.push_back(static_cast<int>(file_columns_.size()));
    file_columns_.push_back(index);
    fields.push_back(file_schema.field(index));
  }
  schema_ = std::make_shared<BatchSchema>(std::move(fields));
  return Ok();
}

Result<RecordBatch> OrcBatchReader::Assemble(const RecordBatch& rows) const {
  std::vector<Array> columns;
  for (int i = 0; i < schema_->num_fields(); ++i) {
    const int source = output_sources_[i];
    columns.push_back(source >= 0 ? rows.column(source)
                                  : Array::MakeNulls(schema_->field(i).type, rows.num_rows()));
  }
  return RecordBatch::Make(schema_, std::move(columns), rows.num_rows());
}

Result<std::optional<RecordBatch>> OrcBatchReader::Next() {
  while (!current_ || current_offset_ >= current_->num_rows()) {
    if (next_stripe_ >= file_->num_stripes()) return std::nullopt;
    const size_t stripe = next_stripe_++;
    const StripeInformation& info = file_->footer().stripes[stripe];
    stripe_first_row_ = next_stripe_first_row_;
    next_stripe_first_row_ += static_cast<int64_t>(info.number_of_rows);
    if (options_.byte_range) {
      const auto [first, length] = *options_.byte_range;
      const auto offset = static_cast<int64_t>(info.offset);
      if (offset < first || offset - first >= length) continue;
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch rows, file_->ReadStripe(stripe, file_columns_));
    current_ = std::move(rows);
    current_offset_ = 0;
  }
  RecordBatch slice = current_->Slice(current_offset_, options_.batch_rows);
  batch_row_position_ = stripe_first_row_ + current_offset_;
  current_offset_ += slice.num_rows();
  FLOE_ASSIGN_OR_RETURN(RecordBatch out, Assemble(slice));
  return out;
}

Result<std::vector<RecordBatch>> OrcBatchReader::ReadAll() {
  std::vector<RecordBatch> out;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, Next());
    if (!batch) return out;
    out.push_back(std::move(*batch));
  }
}

}  // namespace floe::orc
