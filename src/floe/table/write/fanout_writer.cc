#include "floe/table/write/fanout_writer.h"

#include "floe/batch/take.h"

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
  // The batch's partitions numbered in the order it first names them, each row's number in place
  // of its partition id; contiguous when no partition comes back after another.
  index_of_id_.resize(partitioner_->num_partitions(), kNotSeen);
  seen_.clear();
  bool contiguous = true;
  for (size_t i = 0; i < partition_of_row_.size(); ++i) {
    uint32_t& index = index_of_id_[partition_of_row_[i]];
    if (index == kNotSeen) {
      index = static_cast<uint32_t>(seen_.size());
      seen_.push_back(partition_of_row_[i]);
    } else if (index != partition_of_row_[i - 1]) {
      contiguous = false;
    }
    partition_of_row_[i] = index;
  }
  for (uint32_t id : seen_) index_of_id_[id] = kNotSeen;
  GroupRows(partition_of_row_, seen_.size(), starts_, order_);
  for (size_t k = 0; k < seen_.size(); ++k) {
    FLOE_ASSIGN_OR_RETURN(DataFileWriter * writer, WriterFor(seen_[k]));
    const int64_t start = starts_[k], count = starts_[k + 1] - start;
    FLOE_RETURN_IF_ERROR(contiguous ? writer->Write(batch.Slice(start, count))
                                    : writer->Write(batch, std::span<const int64_t>(order_).subspan(
                                                               static_cast<size_t>(start),
                                                               static_cast<size_t>(count))));
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
