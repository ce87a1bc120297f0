#include "floe/table/write/parquet_appender.h"

namespace floe::table {

Result<std::unique_ptr<FileAppender>> ParquetAppender::Make(std::unique_ptr<io::FileWriter> file,
                                                            const AppenderSpec& spec) {
  parquet::WriterOptions options =
      spec.properties != nullptr ? spec.properties->parquet : parquet::WriterOptions{};
  spec.metrics.ApplyTo(options);
  for (int32_t id : spec.schema->all_field_ids()) {
    const NestedField* field = spec.schema->FindField(id);
    if (field != nullptr && field->type->id() == TypeId::kUuid)
      options.uuid_field_ids.push_back(id);
  }
  FLOE_ASSIGN_OR_RETURN(auto writer,
                        parquet::ParquetWriter::Make(std::move(file), spec.batch_schema, options));
  return std::unique_ptr<FileAppender>(new ParquetAppender(std::move(writer), spec.schema));
}

Result<AppendResult> ParquetAppender::Close() {
  FLOE_ASSIGN_OR_RETURN(parquet::WriteResult written, writer_->Close());
  AppendResult result;
  result.record_count = written.row_count;
  result.file_size = written.file_size;
  result.split_offsets = std::move(written.split_offsets);
  FLOE_ASSIGN_OR_RETURN(result.metrics, MetricsFromParquet(written, *schema_));
  return result;
}

}  // namespace floe::table
