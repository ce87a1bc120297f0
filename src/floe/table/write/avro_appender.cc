#include "floe/table/write/avro_appender.h"

#include "floe/manifest/avro_data_file.h"

namespace floe::table {

AvroAppender::AvroAppender(std::unique_ptr<manifest::AvroDataWriter> writer)
    : writer_(std::move(writer)) {}
AvroAppender::~AvroAppender() = default;

Result<std::unique_ptr<FileAppender>> AvroAppender::Make(std::unique_ptr<io::FileWriter> file,
                                                         const AppenderSpec& spec) {
  StringMap properties;
  if (spec.properties != nullptr) {
    properties.insert(spec.properties->properties.begin(), spec.properties->properties.end());
  }
  FLOE_ASSIGN_OR_RETURN(manifest::AvroDataWriterOptions options,
                        manifest::AvroDataWriterOptions::FromProperties(properties));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<manifest::AvroDataWriter> writer,
                        manifest::AvroDataWriter::Open(std::move(file), spec.schema, options));
  return std::unique_ptr<FileAppender>(new AvroAppender(std::move(writer)));
}

Status AvroAppender::Write(const RecordBatch& batch) { return writer_->Write(batch); }

int64_t AvroAppender::EstimatedSize() const {
  return static_cast<int64_t>(writer_->bytes_written());
}

Result<AppendResult> AvroAppender::Close() {
  FLOE_ASSIGN_OR_RETURN(manifest::AvroDataFileMetrics metrics, writer_->Close());
  AppendResult result;
  result.record_count = metrics.record_count;
  result.file_size = metrics.file_size_in_bytes;
  result.metrics.value_counts = std::move(metrics.value_counts);
  result.metrics.null_value_counts = std::move(metrics.null_value_counts);
  result.metrics.nan_value_counts = std::move(metrics.nan_value_counts);
  return result;
}

}  // namespace floe::table
