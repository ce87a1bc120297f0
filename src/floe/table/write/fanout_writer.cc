#include "floe/table/write/fanout_writer.h"

namespace floe::table {

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
  const size_t n = partition_of_row_.size();
  index_of_id_.resize(partitioner_->num_partitions(), kNotSeen);
  seen_.clear();
  counts_.clear();
  bool contiguous = true;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = partition_of_row_[i];
    uint32_t& index = index_of_id_[id];
    if (index == kNotSeen) {
      index = static_cast<uint32_t>(seen_.size());
      seen_.push_back(id);
      counts_.push_back(0);
    } else if (partition_of_row_[i - 1] != id) {
      contiguous = false;
    }
    ++counts_[index];
  }
  if (!contiguous) {
    // A counting sort of the rows by partition.
    std::vector<int64_t> next(seen_.size());
    for (size_t k = 1; k < seen_.size(); ++k) next[k] = next[k - 1] + counts_[k - 1];
    order_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      order_[static_cast<size_t>(next[index_of_id_[partition_of_row_[i]]]++)] =
          static_cast<int64_t>(i);
    }
  }
  Status written;
  int64_t start = 0;
  for (size_t k = 0; k < seen_.size() && written; ++k) {
    Result<DataFileWriter*> writer = WriterFor(seen_[k]);
    if (!writer) {
      written = std::unexpected(writer.error());
    } else if (contiguous) {
      written = (*writer)->Write(batch.Slice(start, counts_[k]));
    } else {
      written =
          (*writer)->Write(batch, std::span<const int64_t>(order_).subspan(
                                      static_cast<size_t>(start), static_cast<size_t>(counts_[k])));
    }
    start += counts_[k];
  }
  for (uint32_t id : seen_) index_of_id_[id] = kNotSeen;
  return written;
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
