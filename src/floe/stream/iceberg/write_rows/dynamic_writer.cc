#include "floe/stream/iceberg/write_rows/dynamic_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "floe/batch/take.h"
#include "floe/stream/iceberg/write_rows/dynamic_selector.h"
#include "floe/stream/metrics.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"

namespace floe::stream {

struct DynamicWriter::TableWriter {
  DestinationTables::Entry* entry = nullptr;
  int64_t version = -1;
  SchemaPtr schema;        // the table's schema when `writer` was opened
  BatchSchemaPtr columns;  // the same as batch fields
  std::unique_ptr<IcebergSinkWriter> writer;
  CapturingOutput flushed;  // files of writers closed before the barrier
  // Rows that fit `schema` not yet handed to `writer`, in arrival order, all of one column set.
  std::vector<Part> pending;
  int64_t pending_rows = 0;
  int64_t pending_bytes = 0;

  void ClearPending() {
    pending.clear();
    pending_rows = 0;
    pending_bytes = 0;
  }
  // The number of the oldest input batch with pending rows.
  int64_t PendingSince() const { return pending.front().source->sequence; }
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

Status DynamicWriter::WriteTo(const std::string& key, Part part, int64_t bytes) {
  const BatchSchemaPtr& columns = part.source->rows.schema();
  FLOE_ASSIGN_OR_RETURN(DestinationTables::Entry * entry, tables_->Get(key, columns));
  auto& slot = writers_[key];
  if (!slot) slot = std::make_unique<TableWriter>();
  TableWriter& state = *slot;
  if (!state.writer || state.version != entry->version) {
    if (state.writer) {
      // The shape changed: what was written so far is closed and handed over at the barrier.
      FLOE_RETURN_IF_ERROR(WritePending(state));
      FLOE_RETURN_IF_ERROR(state.writer->SnapshotState(0, state.flushed));
    }
    const Destination& destination = entry->destination;
    SinkSpec sink = TableSinkSpec(spec_, destination.table, destination.branch,
                                  destination.equality_fields, destination.upsert);
    sink.table = entry->table;
    sink.page_buffers = page_buffers_;
    state.writer = std::make_unique<IcebergSinkWriter>(std::move(sink));
    OperatorContext context = context_;
    context.operator_name = fmt::format("{} {}", context_.operator_name, key);
    FLOE_RETURN_IF_ERROR(state.writer->Open(context));
    state.schema = entry->table->metadata()->current_schema();
    FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, table::ToBatchFields(*state.schema));
    state.columns = std::make_shared<const BatchSchema>(std::move(fields));
    state.entry = entry;
    state.version = entry->version;
  }
  // Buffered, so that the writer stack gets a few large batches rather than a few rows per input
  // batch and destination: its costs are per call as much as per row. Parts of one column set
  // are gathered and conformed to the table together.
  if (!state.pending.empty()) {
    const BatchSchemaPtr& pending = state.pending.front().source->rows.schema();
    if (pending != columns && !(*pending == *columns)) {
      FLOE_RETURN_IF_ERROR(WritePending(state));
    }
  }
  state.pending_rows += part.count;
  state.pending_bytes += bytes;
  state.pending.push_back(std::move(part));
  if (state.pending_rows >= kBufferRows || state.pending_bytes >= kBufferBytes) {
    FLOE_RETURN_IF_ERROR(WritePending(state));
  }
  return Ok();
}

Status DynamicWriter::WritePending(TableWriter& state) {
  if (state.pending.empty()) return Ok();
  ++buffer_flushes_;
  Result<RecordBatch> rows = [&]() -> Result<RecordBatch> {
    const Part& first = state.pending.front();
    if (state.pending.size() == 1 && first.source->order.empty()) {
      return first.source->rows.Slice(first.start, first.count);
    }
    int64_t rows_in_order = 0;
    for (const Part& part : state.pending) {
      if (part.source->order.empty())
        rows_in_order = std::max(rows_in_order, part.start + part.count);
    }
    if (identity_.size() < static_cast<size_t>(rows_in_order)) {
      const auto from = static_cast<int64_t>(identity_.size());
      identity_.resize(static_cast<size_t>(rows_in_order));
      std::iota(identity_.begin() + from, identity_.end(), from);
    }
    std::vector<TakeSource> sources;
    sources.reserve(state.pending.size());
    for (const Part& part : state.pending) {
      const std::vector<int64_t>& order = part.source->order;
      const std::span<const int64_t> indices = order.empty() ? identity_ : order;
      sources.push_back({&part.source->rows, indices.subspan(static_cast<size_t>(part.start),
                                                             static_cast<size_t>(part.count))});
    }
    return TakeBatches(sources);
  }();
  state.ClearPending();
  if (!rows) return std::unexpected(rows.error());
  return WriteBatch(state, *rows);
}

Status DynamicWriter::WriteBatch(TableWriter& state, const RecordBatch& rows) {
  // The schema the writer was opened with: the rows were checked against it.
  FLOE_ASSIGN_OR_RETURN(RecordBatch conformed, ConformToTable(rows, *state.schema, state.columns));
  CapturingOutput unused;
  return state.writer->ProcessBatch(0, std::move(conformed), unused);
}

Status DynamicWriter::WriteAllPending() {
  std::vector<TableWriter*> tables;
  for (auto& [key, state] : writers_) {
    if (!state->pending.empty()) tables.push_back(state.get());
  }
  if (tables.size() < 2) return tables.empty() ? Ok() : WritePending(*tables.front());
  // The buffered input batches in arrival order, and each of their rows' table (by its place in
  // `tables`).
  std::vector<std::shared_ptr<const Grouped>> sources;
  for (TableWriter* table : tables) {
    for (const Part& part : table->pending) sources.push_back(part.source);
  }
  auto sequence = [](const std::shared_ptr<const Grouped>& grouped) { return grouped->sequence; };
  std::ranges::sort(sources, {}, sequence);
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  std::vector<std::vector<uint32_t>> table_of_row(sources.size());
  for (size_t s = 0; s < sources.size(); ++s) {
    table_of_row[s].assign(static_cast<size_t>(sources[s]->rows.num_rows()), kNoGroup);
  }
  for (size_t t = 0; t < tables.size(); ++t) {
    for (const Part& part : tables[t]->pending) {
      const auto s = static_cast<size_t>(
          std::ranges::lower_bound(sources, part.source->sequence, {}, sequence) - sources.begin());
      const std::vector<int64_t>& order = part.source->order;
      for (int64_t k = part.start; k < part.start + part.count; ++k) {
        const int64_t row = order.empty() ? k : order[static_cast<size_t>(k)];
        table_of_row[s][static_cast<size_t>(row)] = static_cast<uint32_t>(t);
      }
    }
    tables[t]->ClearPending();
  }
  // Batches of one column set at a time (a table's buffered rows all have one).
  std::vector<bool> done(sources.size(), false);
  std::vector<PartitionSource> same_columns;
  for (size_t first = 0; first < sources.size(); ++first) {
    if (done[first]) continue;
    const BatchSchemaPtr& columns = sources[first]->rows.schema();
    same_columns.clear();
    for (size_t s = first; s < sources.size(); ++s) {
      const BatchSchemaPtr& other = sources[s]->rows.schema();
      if (done[s] || (other != columns && !(*other == *columns))) continue;
      same_columns.push_back({&sources[s]->rows, table_of_row[s]});
      done[s] = true;
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<RecordBatch> parts,
                          PartitionBatches(same_columns, tables.size()));
    for (size_t t = 0; t < tables.size(); ++t) {
      if (parts[t].num_rows() == 0) continue;
      ++buffer_flushes_;
      FLOE_RETURN_IF_ERROR(WriteBatch(*tables[t], parts[t]));
    }
  }
  return Ok();
}

Status DynamicWriter::ProcessBatch(int /*input*/, RecordBatch batch, Output& /*output*/) {
  if (batch.num_rows() == 0) return Ok();
  ++batches_seen_;
  FLOE_RETURN_IF_ERROR(spec_.destinations.GroupsOf(batch, row_keys_));
  FLOE_ASSIGN_OR_RETURN(RecordBatch rows, spec_.filter.Apply(batch));
  const int64_t bytes = DynamicChannelSelector::BatchBytes(rows);
  const std::vector<std::string>& keys = row_keys_.keys;
  auto grouped = std::make_shared<Grouped>();
  grouped->rows = std::move(rows);
  grouped->sequence = batches_seen_;
  const int64_t num_rows = grouped->rows.num_rows();
  if (keys.size() == 1) {
    FLOE_RETURN_IF_ERROR(WriteTo(keys.front(), Part{std::move(grouped), 0, num_rows}, bytes));
  } else {
    // The rows' order by destination (first-seen keys first, arrival order within a key); each
    // destination buffers its run of it.
    GroupRows(row_keys_.key_of_row, keys.size(), starts_, grouped->order);
    const double bytes_per_row = static_cast<double>(bytes) / static_cast<double>(num_rows);
    for (size_t k = 0; k < keys.size(); ++k) {
      const int64_t count = starts_[k + 1] - starts_[k];
      FLOE_RETURN_IF_ERROR(
          WriteTo(keys[k], Part{grouped, starts_[k], count},
                  static_cast<int64_t>(bytes_per_row * static_cast<double>(count))));
    }
  }
  for (auto& [key, state] : writers_) {
    if (!state->pending.empty() && batches_seen_ - state->PendingSince() >= kBufferBatches) {
      return WriteAllPending();
    }
  }
  return Ok();
}

Status DynamicWriter::Flush(int64_t checkpoint_id, Output& output) {
  DynamicWriteResult result{.checkpoint_id = checkpoint_id, .subtask = context_.subtask_index};
  // Buffered rows belong to this checkpoint: they go into its files before they close.
  FLOE_RETURN_IF_ERROR(WriteAllPending());
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
    context_.metrics->Set(
        fmt::format("{}.{}.bufferFlushes", context_.operator_name, context_.subtask_index),
        buffer_flushes_);
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
