#include "floe/stream/iceberg/sink_writer.h"

#include <chrono>

#include "floe/stream/metrics.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"
#include "floe/table/write/delta_writer.h"
#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/location_provider.h"
#include "floe/table/write/metrics_config.h"
#include "floe/table/write/output_file_factory.h"
#include "floe/util/uuid.h"

namespace floe::stream {

IcebergSinkWriter::IcebergSinkWriter(SinkSpec spec) : spec_(std::move(spec)) {}
IcebergSinkWriter::~IcebergSinkWriter() = default;

Status IcebergSinkWriter::Open(const OperatorContext& context) {
  name_ = context.operator_name;
  subtask_ = context.subtask_index;
  metrics_ = context.metrics;
  if (spec_.table) {
    table_ = spec_.table;
  } else {
    FLOE_ASSIGN_OR_RETURN(table_, spec_.loader.Load());
  }
  TableMetadataPtr metadata = table_->metadata();
  FLOE_ASSIGN_OR_RETURN(options_,
                        SinkOptions::Resolve(*metadata, spec_.options, spec_.equality_columns));
  // All files of this writer (every partition, data and deletes) encode pages in one scratch.
  options_.write.parquet.page_buffers =
      spec_.page_buffers ? spec_.page_buffers : std::make_shared<parquet::PageBuffers>();
  const std::map<std::string, std::string> properties(metadata->properties().begin(),
                                                      metadata->properties().end());
  FLOE_ASSIGN_OR_RETURN(table::MetricsConfig metrics,
                        table::MetricsConfig::Make(properties, *metadata->current_schema()));
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields,
                        table::ToBatchFields(*metadata->current_schema()));
  // One operation id per attempt: file names never collide with those of an earlier attempt.
  const std::string operation = RandomUuid();
  table::LocationProvider locations(metadata->location(), properties);
  data_files_ = std::make_unique<table::OutputFileFactory>(
      locations, table::OutputFileFactoryOptions{
                     .partition_id = subtask_,
                     .operation_id = operation,
                     .format = std::string(table::FileFormatName(options_.write.format))});
  delete_files_ = std::make_unique<table::OutputFileFactory>(
      locations, table::OutputFileFactoryOptions{
                     .partition_id = subtask_,
                     .operation_id = operation,
                     .suffix = "deletes",
                     .format = std::string(table::FileFormatName(options_.write.delete_format))});
  context_.io = table_->io().get();
  context_.data_files = data_files_.get();
  context_.delete_files = delete_files_.get();
  context_.properties = &options_.write;
  context_.schema = metadata->current_schema();
  context_.format_version = metadata->format_version();
  context_.batch_schema = std::make_shared<const BatchSchema>(std::move(fields));
  context_.metrics = std::move(metrics);
  if (!metadata->default_spec()->is_unpartitioned()) context_.spec = metadata->default_spec();
  return Ok();
}

bool IcebergSinkWriter::FitsTable(const BatchSchemaPtr& columns) {
  if (columns == fits_table_) return true;
  if (!(*columns == *context_.batch_schema)) return false;
  fits_table_ = columns;
  return true;
}

Result<RecordBatch> IcebergSinkWriter::AsTableRows(const RecordBatch& batch) {
  if (FitsTable(batch.schema())) return batch;
  std::optional<Buffer> kinds;
  if (batch.has_row_kinds()) kinds = Buffer::CopyOf(batch.row_kinds().data(), batch.num_rows());
  auto rows =
      RecordBatch::Make(context_.batch_schema, batch.columns(), batch.num_rows(), std::move(kinds));
  if (!rows) {
    return InvalidArgument("iceberg sink {}: rows ({}) do not fit table {} ({}): {}", name_,
                           batch.schema()->ToString(), spec_.loader.ToString(),
                           context_.batch_schema->ToString(), rows.error().message());
  }
  return rows;
}

Status IcebergSinkWriter::ProcessBatch(int /*input*/, RecordBatch batch, Output& /*output*/) {
  if (batch.num_rows() == 0) return Ok();
  FLOE_ASSIGN_OR_RETURN(RecordBatch rows, AsTableRows(batch));
  Status written = WriteRows(rows);
  if (metrics_ != nullptr) {
    metrics_->Set(fmt::format("{}.{}.{}", name_, subtask_, kFilesWrittenMetric),
                  data_files_->files_named() + delete_files_->files_named());
  }
  return written;
}

Status IcebergSinkWriter::WriteRows(const RecordBatch& rows) {
  if (!options_.equality_field_ids.empty()) {
    if (!delta_) {
      FLOE_ASSIGN_OR_RETURN(
          delta_, table::DeltaWriter::Make(context_, options_.equality_field_ids, options_.upsert,
                                           options_.max_open_files));
    }
    return delta_->Write(rows);
  }
  for (RowKind kind : rows.row_kinds()) {
    if (kind == RowKind::kUpdateBefore || kind == RowKind::kDelete) {
      return InvalidArgument(
          "iceberg sink {}: a {} row needs equality fields to be written as a delete (identifier "
          "fields of a v2 table, or equality-field-columns)",
          name_, RowKindSymbol(kind));
    }
  }
  if (!fanout_) {
    FLOE_ASSIGN_OR_RETURN(fanout_, table::FanoutWriter::Make(context_, options_.max_open_files));
  }
  return fanout_->Write(rows);
}

Status IcebergSinkWriter::Flush(int64_t checkpoint_id, Output& output) {
  auto files = std::make_shared<table::WriteResult>();
  const auto start = std::chrono::steady_clock::now();
  if (fanout_) {
    FLOE_ASSIGN_OR_RETURN(*files, fanout_->Close());
    fanout_.reset();
  }
  int64_t inserted_keys = 0;
  if (delta_) {
    inserted_keys = static_cast<int64_t>(delta_->inserted_keys());
    // Close frees the checkpoint's key maps; the writer takes the next checkpoint's rows.
    FLOE_ASSIGN_OR_RETURN(*files, delta_->Close());
  }
  if (metrics_ != nullptr) {
    const std::string prefix = fmt::format("{}.{}.", name_, subtask_);
    metrics_->Set(prefix + "lastFlushInsertedKeys", inserted_keys);
    metrics_->Add(prefix + "flushedDataFiles", static_cast<int64_t>(files->data_files.size()));
    metrics_->Add(prefix + "flushedDeleteFiles", static_cast<int64_t>(files->delete_files.size()));
    metrics_->Set(prefix + "lastFlushDurationMs",
                  std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count());
  }
  // Sent even when empty, as Flink's writers do: the committer hears from every writer.
  return output.EmitMessage(
      Message{SinkWriteResult{.checkpoint_id = checkpoint_id, .subtask = subtask_, .files = files}},
      0);
}

Result<std::vector<std::string>> IcebergSinkWriter::SnapshotState(int64_t checkpoint_id,
                                                                  Output& output) {
  FLOE_RETURN_IF_ERROR(Flush(checkpoint_id, output));
  return std::vector<std::string>{};
}

Status IcebergSinkWriter::Finish(Output& output) { return Flush(kEndOfInputCheckpointId, output); }

}  // namespace floe::stream
