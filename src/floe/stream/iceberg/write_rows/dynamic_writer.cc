#include "floe/stream/iceberg/write_rows/dynamic_writer.h"

#include <fmt/format.h>

#include <unordered_map>

#include "floe/batch/take.h"
#include "floe/stream/metrics.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"

namespace floe::stream {

struct DynamicWriter::TableWriter {
  DestinationTables::Entry* entry = nullptr;
  int64_t version = -1;
  BatchSchemaPtr columns;  // the table's current schema as batch fields
  std::unique_ptr<IcebergSinkWriter> writer;
  CapturingOutput flushed;  // files of writers closed before the barrier
};

DynamicWriter::DynamicWriter(WriteRowsSpec spec) : spec_(std::move(spec)) {}
DynamicWriter::~DynamicWriter() = default;

Status DynamicWriter::Open(const OperatorContext& context) {
  context_ = context;
  context_.restored_state.clear();
  FLOE_ASSIGN_OR_RETURN(auto catalog,
                        catalog::CreateCatalog(spec_.catalog_name, spec_.catalog_properties));
  tables_ =
      std::make_unique<DestinationTables>(std::move(catalog), spec_.destinations, spec_.tables);
  return Ok();
}

Status DynamicWriter::WriteTo(const std::string& key, const RecordBatch& rows) {
  FLOE_ASSIGN_OR_RETURN(DestinationTables::Entry * entry, tables_->Get(key, rows.schema()));
  auto& slot = writers_[key];
  if (!slot) slot = std::make_unique<TableWriter>();
  TableWriter& state = *slot;
  if (!state.writer || state.version != entry->version) {
    if (state.writer) {
      // The shape changed: what was written so far is closed and handed over at the barrier.
      FLOE_RETURN_IF_ERROR(state.writer->SnapshotState(0, state.flushed));
    }
    const Destination& destination = entry->destination;
    SinkSpec sink = TableSinkSpec(spec_, destination.table, destination.branch,
                                  destination.equality_fields, destination.upsert);
    sink.table = entry->table;
    state.writer = std::make_unique<IcebergSinkWriter>(std::move(sink));
    OperatorContext context = context_;
    context.operator_name = fmt::format("{} {}", context_.operator_name, key);
    FLOE_RETURN_IF_ERROR(state.writer->Open(context));
    FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields,
                          table::ToBatchFields(*entry->table->metadata()->current_schema()));
    state.columns = std::make_shared<const BatchSchema>(std::move(fields));
    state.entry = entry;
    state.version = entry->version;
  }
  FLOE_ASSIGN_OR_RETURN(
      RecordBatch conformed,
      ConformToTable(rows, *entry->table->metadata()->current_schema(), state.columns));
  CapturingOutput unused;
  return state.writer->ProcessBatch(0, std::move(conformed), unused);
}

Status DynamicWriter::ProcessBatch(int /*input*/, RecordBatch batch, Output& /*output*/) {
  if (batch.num_rows() == 0) return Ok();
  FLOE_RETURN_IF_ERROR(spec_.destinations.KeysOf(batch, keys_));
  FLOE_ASSIGN_OR_RETURN(RecordBatch rows, spec_.filter.Apply(batch));
  bool one_key = true;
  for (const std::string& key : keys_) one_key &= key == keys_.front();
  if (one_key) return WriteTo(keys_.front(), rows);
  std::unordered_map<std::string_view, std::vector<int64_t>> rows_of_key;
  std::vector<std::string_view> order;
  for (size_t i = 0; i < keys_.size(); ++i) {
    auto [it, inserted] = rows_of_key.try_emplace(keys_[i]);
    if (inserted) order.push_back(keys_[i]);
    it->second.push_back(static_cast<int64_t>(i));
  }
  for (std::string_view key : order) {
    FLOE_ASSIGN_OR_RETURN(RecordBatch part, TakeBatch(rows, rows_of_key[key]));
    FLOE_RETURN_IF_ERROR(WriteTo(std::string(key), part));
  }
  return Ok();
}

Status DynamicWriter::Flush(int64_t checkpoint_id, Output& output) {
  DynamicWriteResult result{.checkpoint_id = checkpoint_id, .subtask = context_.subtask_index};
  for (auto& [key, state] : writers_) {
    if (state->writer) {
      FLOE_RETURN_IF_ERROR(state->writer->SnapshotState(checkpoint_id, state->flushed));
    }
    auto merged = std::make_shared<table::WriteResult>();
    for (Message& message : state->flushed.TakeMessages()) {
      const auto& files = std::any_cast<const SinkWriteResult&>(message.value).files;
      if (!files) continue;
      merged->data_files.insert(merged->data_files.end(), files->data_files.begin(),
                                files->data_files.end());
      merged->delete_files.insert(merged->delete_files.end(), files->delete_files.begin(),
                                  files->delete_files.end());
      merged->referenced_data_files.insert(merged->referenced_data_files.end(),
                                           files->referenced_data_files.begin(),
                                           files->referenced_data_files.end());
    }
    if (merged->data_files.empty() && merged->delete_files.empty()) continue;
    const Destination& destination = state->entry->destination;
    result.tables.push_back({.table = destination.table.ToString(),
                             .branch = destination.branch,
                             .equality_fields = destination.equality_fields,
                             .upsert = destination.upsert,
                             .files = std::move(merged)});
  }
  if (context_.metrics != nullptr) {
    context_.metrics->Set(
        fmt::format("{}.{}.catalogRequests", context_.operator_name, context_.subtask_index),
        tables_->catalog_requests());
  }
  // Sent even when empty: the committer hears from every writer at every checkpoint.
  return output.EmitMessage(Message{std::move(result)}, 0);
}

Result<std::vector<std::string>> DynamicWriter::SnapshotState(int64_t checkpoint_id,
                                                              Output& output) {
  FLOE_RETURN_IF_ERROR(Flush(checkpoint_id, output));
  return std::vector<std::string>{};
}

Status DynamicWriter::Finish(Output& output) { return Flush(kEndOfInputCheckpointId, output); }

}  // namespace floe::stream
