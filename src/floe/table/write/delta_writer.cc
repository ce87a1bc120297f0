#include "floe/table/write/delta_writer.h"

#include <algorithm>
#include <optional>
#include <set>

#include "floe/batch/take.h"
#include "floe/table/write/inserted_keys.h"
#include "floe/table/write/row_key.h"

namespace floe::table {
namespace {

// How many rows ahead the key table's slot is prefetched: enough to cover a memory access while
// the rows in between are handled.
constexpr int64_t kPrefetchDistance = 16;

}  // namespace

struct DeltaWriter::PartitionState {
  std::vector<Literal> values;
  // Null while the partition's files are closed (max_open_files).
  std::unique_ptr<DataFileWriter> data;
  std::unique_ptr<EqualityDeleteWriter> equality;
  uint64_t last_use = 0;
  // One of the two: position delete files (v2), deletion vectors (v3).
  std::unique_ptr<PositionDeleteWriter> positions;
  std::unique_ptr<DeletionVectorWriter> vectors;
  // Keys inserted by this writer -> (index into paths, row position).
  InsertedKeys inserted;
  std::vector<std::string> paths;
  std::set<uint32_t> referenced;
  // The current batch's rows of this partition.
  std::optional<int64_t> next_pos;
  std::vector<int64_t> insert_rows;
  std::vector<int64_t> delete_rows;
  const std::string* current_key = nullptr;
  uint64_t current_hash = 0;
};

DeltaWriter::~DeltaWriter() = default;

Result<std::unique_ptr<DeltaWriter>> DeltaWriter::Make(WriterContext context,
                                                       std::vector<int32_t> equality_ids,
                                                       bool upsert, size_t max_open_files) {
  if (equality_ids.empty()) {
    return InvalidArgument(
        "delta writer: no equality fields (set identifier fields or equality ids)");
  }
  std::unique_ptr<DeltaWriter> w(new DeltaWriter());
  for (int32_t id : equality_ids) {
    const int index = context.batch_schema->FindFieldIndexById(id);
    if (index < 0) {
      return InvalidArgument("delta writer: equality field {} is not a top-level column of {}", id,
                             context.batch_schema->ToString());
    }
    w->key_columns_.push_back(index);
  }
  if (context.spec && !context.spec->fields().empty()) {
    if (upsert) {
      for (const PartitionField& field : context.spec->fields()) {
        if (std::find(equality_ids.begin(), equality_ids.end(), field.source_id()) ==
            equality_ids.end()) {
          return InvalidArgument(
              "delta writer: in upsert mode the partition source {} of field {} must be an "
              "equality field",
              field.source_id(), field.name);
        }
      }
    }
    FLOE_ASSIGN_OR_RETURN(w->partitioner_,
                          Partitioner::Make(context.spec, *context.schema, *context.batch_schema));
  }
  if (upsert) {
    w->delete_schema_ = context.schema->Project(equality_ids);
    std::vector<Field> fields;
    for (int c : w->key_columns_) fields.push_back(context.batch_schema->field(c));
    w->delete_batch_schema_ = std::make_shared<const BatchSchema>(std::move(fields));
  } else {
    w->delete_schema_ = context.schema;
    w->delete_batch_schema_ = context.batch_schema;
  }
  w->context_ = std::move(context);
  w->equality_ids_ = std::move(equality_ids);
  w->upsert_ = upsert;
  w->max_open_files_ = max_open_files;
  return w;
}

Result<DeltaWriter::PartitionState*> DeltaWriter::State(uint32_t partition,
                                                        const RecordBatch& batch) {
  if (states_.size() <= partition) states_.resize(partition + 1);
  if (!states_[partition]) {
    auto state = std::make_unique<PartitionState>();
    if (partitioner_) state->values = partitioner_->Values(partition);
    auto options = context_.DeleteOptions(state->values, delete_schema_, delete_batch_schema_);
    if (context_.format_version >= 3) {
      state->vectors = std::make_unique<DeletionVectorWriter>(std::move(options));
    } else {
      state->positions = std::make_unique<PositionDeleteWriter>(std::move(options));
    }
    states_[partition] = std::move(state);
  }
  PartitionState& s = *states_[partition];
  if (!s.data) FLOE_RETURN_IF_ERROR(OpenFiles(s, batch));
  s.last_use = ++uses_;
  return &s;
}

Status DeltaWriter::OpenFiles(PartitionState& s, const RecordBatch& batch) {
  if (max_open_files_ > 0 && open_ >= max_open_files_) {
    FLOE_RETURN_IF_ERROR(CloseLeastRecentlyUsed(batch));
  }
  s.data = std::make_unique<DataFileWriter>(context_.DataOptions(s.values), context_.sort_order_id);
  FLOE_ASSIGN_OR_RETURN(s.equality,
                        EqualityDeleteWriter::Make(
                            context_.DeleteOptions(s.values, delete_schema_, delete_batch_schema_),
                            equality_ids_, std::nullopt));
  ++open_;
  return {};
}

Status DeltaWriter::CloseLeastRecentlyUsed(const RecordBatch& batch) {
  PartitionState* oldest = nullptr;
  for (const auto& s : states_) {
    if (s && s->data && (oldest == nullptr || s->last_use < oldest->last_use)) oldest = s.get();
  }
  if (oldest == nullptr) return {};
  if (std::find(touched_.begin(), touched_.end(), oldest) != touched_.end()) {
    // Every open partition has rows of this batch waiting: write them out first, so that the
    // positions already handed out for them land in the files they name.
    for (PartitionState* t : touched_) FLOE_RETURN_IF_ERROR(Flush(*t, batch));
    touched_.clear();
  }
  FLOE_ASSIGN_OR_RETURN(auto data, oldest->data->Close());
  for (auto& f : data) closed_.data_files.push_back(std::move(f));
  FLOE_ASSIGN_OR_RETURN(auto equality, oldest->equality->Close());
  for (auto& f : equality) closed_.delete_files.push_back(std::move(f));
  oldest->data.reset();
  oldest->equality.reset();
  --open_;
  return {};
}

Status DeltaWriter::Insert(PartitionState& s, int64_t row) {
  if (!s.next_pos) {
    FLOE_ASSIGN_OR_RETURN(auto position, s.data->files().NextPosition());
    if (s.paths.empty() || s.paths.back() != position.location) {
      s.paths.push_back(position.location);
    }
    s.next_pos = position.row;
  }
  const InsertedKeys::Location here{static_cast<uint32_t>(s.paths.size() - 1), (*s.next_pos)++};
  s.insert_rows.push_back(row);
  // One lookup does both halves of an upsert: the key's earlier row in this commit is deleted by
  // position; a key not seen since the last commit is deleted by equality.
  if (auto previous = s.inserted.Put(*s.current_key, s.current_hash, here)) {
    DeletePosition(s, *previous);
  } else if (upsert_) {
    s.delete_rows.push_back(row);
  }
  return {};
}

void DeltaWriter::Delete(PartitionState& s, int64_t row) {
  if (auto previous = s.inserted.Remove(*s.current_key, s.current_hash)) {
    DeletePosition(s, *previous);
  } else {
    s.delete_rows.push_back(row);
  }
}

void DeltaWriter::DeletePosition(PartitionState& s, const InsertedKeys::Location& location) {
  if (s.vectors) {
    s.vectors->Delete(s.paths[location.file], location.position);
  } else {
    s.positions->Delete(s.paths[location.file], location.position);
  }
  s.referenced.insert(location.file);
}

namespace {

// The rows of `batch` at `rows` (ascending): a slice, without a copy, when they are contiguous
// (all rows of an upsert batch into an unpartitioned table).
Result<RecordBatch> Rows(const RecordBatch& batch, const std::vector<int64_t>& rows) {
  if (rows.back() - rows.front() + 1 == std::ssize(rows)) {
    return batch.Slice(rows.front(), std::ssize(rows));
  }
  return TakeBatch(batch, rows);
}

}  // namespace

Status DeltaWriter::Flush(PartitionState& s, const RecordBatch& batch) {
  if (!s.insert_rows.empty()) {
    FLOE_ASSIGN_OR_RETURN(RecordBatch rows, Rows(batch, s.insert_rows));
    FLOE_RETURN_IF_ERROR(s.data->files().WriteToCurrent(rows));
  }
  if (!s.delete_rows.empty()) {
    // Upserts delete by key: only the key columns are gathered, not the whole rows.
    RecordBatch source = batch;
    if (upsert_) {
      FLOE_ASSIGN_OR_RETURN(source, batch.SelectColumns(key_columns_));
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch rows, Rows(source, s.delete_rows));
    FLOE_RETURN_IF_ERROR(s.equality->Write(rows));
  }
  s.insert_rows.clear();
  s.delete_rows.clear();
  s.next_pos.reset();
  return {};
}

Status DeltaWriter::Write(const RecordBatch& batch) {
  const int64_t n = batch.num_rows();
  if (n == 0) return {};
  if (partitioner_) {
    FLOE_RETURN_IF_ERROR(partitioner_->Assign(batch, partition_of_row_));
  } else {
    partition_of_row_.assign(static_cast<size_t>(n), 0);
  }
  keys_.clear();
  AppendRowKeys(batch, key_columns_, keys_);
  hashes_.resize(static_cast<size_t>(n));
  for (int64_t row = 0; row < n; ++row) hashes_[row] = InsertedKeys::Hash(keys_[row]);
  // Rows partition by partition (in order within each): a partition's files then open at most
  // once per batch, however the rows are interleaved. Rows of different partitions never delete
  // each other, so their relative order does not matter.
  uint32_t max_partition = 0;
  for (uint32_t p : partition_of_row_) max_partition = std::max(max_partition, p);
  std::vector<int64_t> starts;
  GroupRows(partition_of_row_, max_partition + size_t{1}, starts, order_);
  touched_.clear();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t row = order_[i];
    if (i + kPrefetchDistance < n) {
      const int64_t ahead_row = order_[i + kPrefetchDistance];
      const uint32_t ahead = partition_of_row_[ahead_row];
      if (ahead < states_.size() && states_[ahead]) {
        states_[ahead]->inserted.Prefetch(hashes_[ahead_row]);
      }
    }
    FLOE_ASSIGN_OR_RETURN(PartitionState * s, State(partition_of_row_[row], batch));
    if (s->insert_rows.empty() && s->delete_rows.empty() &&
        std::find(touched_.begin(), touched_.end(), s) == touched_.end()) {
      touched_.push_back(s);
    }
    s->current_key = &keys_[row];
    s->current_hash = hashes_[row];
    switch (batch.row_kind(row)) {
      case RowKind::kInsert:
      case RowKind::kUpdateAfter:
        FLOE_RETURN_IF_ERROR(Insert(*s, row));
        break;
      case RowKind::kUpdateBefore:
        if (!upsert_) Delete(*s, row);
        break;
      case RowKind::kDelete:
        Delete(*s, row);
        break;
    }
  }
  for (PartitionState* s : touched_) FLOE_RETURN_IF_ERROR(Flush(*s, batch));
  touched_.clear();
  return {};
}

Result<WriteResult> DeltaWriter::Close() {
  WriteResult result = std::exchange(closed_, {});
  for (auto& s : states_) {
    if (!s) continue;
    if (s->data) {
      FLOE_ASSIGN_OR_RETURN(auto data, s->data->Close());
      for (auto& f : data) result.data_files.push_back(std::move(f));
      FLOE_ASSIGN_OR_RETURN(auto equality, s->equality->Close());
      for (auto& f : equality) result.delete_files.push_back(std::move(f));
    }
    FLOE_ASSIGN_OR_RETURN(auto positions, s->vectors ? s->vectors->Close() : s->positions->Close());
    for (auto& f : positions) result.delete_files.push_back(std::move(f));
    for (uint32_t p : s->referenced) result.referenced_data_files.push_back(s->paths[p]);
  }
  // The key maps, paths and position deletes of this commit go with their states: a key of a
  // committed file is deleted by equality from now on, so nothing of them is needed again.
  states_.clear();
  open_ = 0;
  return result;
}

size_t DeltaWriter::inserted_keys() const {
  size_t keys = 0;
  for (const auto& s : states_) keys += s ? s->inserted.size() : 0;
  return keys;
}

size_t DeltaWriter::key_memory_bytes() const {
  size_t bytes = 0;
  for (const auto& s : states_) bytes += s ? s->inserted.memory_bytes() : 0;
  return bytes;
}

}  // namespace floe::table
