#include "floe/table/write/clustered_writer.h"

namespace floe::table {

Result<std::unique_ptr<ClusteredWriter>> ClusteredWriter::Make(WriterContext context) {
  std::unique_ptr<ClusteredWriter> writer(new ClusteredWriter(std::move(context)));
  const WriterContext& c = writer->context_;
  if (c.spec && !c.spec->fields().empty()) {
    FLOE_ASSIGN_OR_RETURN(writer->partitioner_,
                          Partitioner::Make(c.spec, *c.schema, *c.batch_schema));
  }
  return writer;
}

Status ClusteredWriter::CloseCurrent() {
  if (!current_) return {};
  FLOE_ASSIGN_OR_RETURN(auto files, current_->Close());
  for (auto& file : files) result_.data_files.push_back(std::move(file));
  current_.reset();
  closed_.insert(current_id_);
  return {};
}

Status ClusteredWriter::Switch(uint32_t partition) {
  if (current_ && current_id_ == partition) return {};
  if (closed_.contains(partition)) {
    std::string path = "(unpartitioned)";
    if (partitioner_) {
      auto p = partitioner_->spec()->PartitionPath(partitioner_->Values(partition));
      if (p) path = *p;
    }
    return InvalidArgument(
        "clustered writer: rows of partition {} arrived after that partition was closed; the "
        "input is not clustered by partition (use the fanout writer)",
        path);
  }
  FLOE_RETURN_IF_ERROR(CloseCurrent());
  std::vector<Literal> values;
  if (partitioner_) values = partitioner_->Values(partition);
  current_ = std::make_unique<DataFileWriter>(context_.DataOptions(std::move(values)),
                                              context_.sort_order_id);
  current_id_ = partition;
  return {};
}

Status ClusteredWriter::Write(const RecordBatch& batch) {
  if (batch.num_rows() == 0) return {};
  if (!partitioner_) {
    FLOE_RETURN_IF_ERROR(Switch(0));
    return current_->Write(batch);
  }
  FLOE_RETURN_IF_ERROR(partitioner_->Assign(batch, partition_of_row_));
  int64_t start = 0;
  const auto n = static_cast<int64_t>(partition_of_row_.size());
  for (int64_t i = 1; i <= n; ++i) {
    if (i < n && partition_of_row_[i] == partition_of_row_[start]) continue;
    FLOE_RETURN_IF_ERROR(Switch(partition_of_row_[start]));
    FLOE_RETURN_IF_ERROR(current_->Write(batch.Slice(start, i - start)));
    start = i;
  }
  return {};
}

Result<WriteResult> ClusteredWriter::Close() {
  FLOE_RETURN_IF_ERROR(CloseCurrent());
  return std::move(result_);
}

}  // namespace floe::table
