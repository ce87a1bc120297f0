#include "floe/table/write/fanout_writer.h"

#include <unordered_map>

#include "floe/batch/take.h"

namespace floe::table {

Result<std::vector<std::pair<uint32_t, RecordBatch>>> SplitByPartition(
    const RecordBatch& batch, const std::vector<uint32_t>& partition_of_row) {
  const auto n = static_cast<int64_t>(partition_of_row.size());
  std::vector<std::pair<uint32_t, RecordBatch>> out;
  // Runs of equal ids; slices suffice when no id has two runs.
  std::vector<std::pair<uint32_t, int64_t>> runs;  // id, start
  for (int64_t i = 0; i < n; ++i) {
    if (i == 0 || partition_of_row[i] != partition_of_row[i - 1])
      runs.push_back({partition_of_row[i], i});
  }
  std::unordered_map<uint32_t, int64_t> rows_of;  // id -> row count
  for (uint32_t id : partition_of_row) ++rows_of[id];
  if (runs.size() == rows_of.size()) {
    for (size_t r = 0; r < runs.size(); ++r) {
      const int64_t end = r + 1 < runs.size() ? runs[r + 1].second : n;
      out.emplace_back(runs[r].first, batch.Slice(runs[r].second, end - runs[r].second));
    }
    return out;
  }
  // Counting sort of row indices by id, ids in order of first appearance.
  std::vector<uint32_t> order;
  std::unordered_map<uint32_t, int64_t> start_of;
  int64_t next = 0;
  for (const auto& [id, start] : runs) {
    if (start_of.contains(id)) continue;
    order.push_back(id);
    start_of[id] = next;
    next += rows_of[id];
  }
  std::vector<int64_t> indices(static_cast<size_t>(n));
  std::unordered_map<uint32_t, int64_t> fill = start_of;
  for (int64_t i = 0; i < n; ++i) indices[fill[partition_of_row[i]]++] = i;
  FLOE_ASSIGN_OR_RETURN(RecordBatch sorted, TakeBatch(batch, indices));
  for (uint32_t id : order) out.emplace_back(id, sorted.Slice(start_of[id], rows_of[id]));
  return out;
}

Result<std::unique_ptr<FanoutWriter>> FanoutWriter::Make(WriterContext context,
                                                         size_t max_open_files) {
  std::unique_ptr<FanoutWriter> writer(new FanoutWriter(std::move(context)));
  writer->max_open_files_ = max_open_files;
  const WriterContext& c = writer->context_;
  if (c.spec && !c.spec->fields().empty()) {
    FLOE_ASSIGN_OR_RETURN(writer->partitioner_,
                          Partitioner::Make(c.spec, *c.schema, *c.batch_schema));
  }
  return writer;
}

Status FanoutWriter::CloseLeastRecentlyUsed() {
  size_t oldest = writers_.size();
  for (size_t i = 0; i < writers_.size(); ++i) {
    if (writers_[i] && (oldest == writers_.size() || last_use_[i] < last_use_[oldest])) oldest = i;
  }
  if (oldest == writers_.size()) return {};
  FLOE_ASSIGN_OR_RETURN(auto files, writers_[oldest]->Close());
  for (auto& file : files) closed_files_.push_back(std::move(file));
  writers_[oldest].reset();
  --open_;
  return {};
}

Result<DataFileWriter*> FanoutWriter::WriterFor(uint32_t partition) {
  if (writers_.size() <= partition) {
    writers_.resize(partition + 1);
    last_use_.resize(partition + 1);
  }
  if (!writers_[partition]) {
    if (max_open_files_ > 0 && open_ >= max_open_files_) {
      FLOE_RETURN_IF_ERROR(CloseLeastRecentlyUsed());
    }
    std::vector<Literal> values;
    if (partitioner_) values = partitioner_->Values(partition);
    writers_[partition] = std::make_unique<DataFileWriter>(context_.DataOptions(std::move(values)),
                                                           context_.sort_order_id);
    ++open_;
  }
  last_use_[partition] = ++uses_;
  return writers_[partition].get();
}

Status FanoutWriter::Write(const RecordBatch& batch) {
  if (batch.num_rows() == 0) return {};
  if (!partitioner_) {
    FLOE_ASSIGN_OR_RETURN(DataFileWriter * writer, WriterFor(0));
    return writer->Write(batch);
  }
  FLOE_RETURN_IF_ERROR(partitioner_->Assign(batch, partition_of_row_));
  FLOE_ASSIGN_OR_RETURN(auto parts, SplitByPartition(batch, partition_of_row_));
  for (const auto& [id, rows] : parts) {
    FLOE_ASSIGN_OR_RETURN(DataFileWriter * writer, WriterFor(id));
    FLOE_RETURN_IF_ERROR(writer->Write(rows));
  }
  return {};
}

Result<WriteResult> FanoutWriter::Close() {
  WriteResult result;
  result.data_files = std::move(closed_files_);
  closed_files_.clear();
  for (auto& writer : writers_) {
    if (!writer) continue;
    FLOE_ASSIGN_OR_RETURN(auto files, writer->Close());
    for (auto& file : files) result.data_files.push_back(std::move(file));
  }
  writers_.clear();
  last_use_.clear();
  open_ = 0;
  return result;
}

}  // namespace floe::table
