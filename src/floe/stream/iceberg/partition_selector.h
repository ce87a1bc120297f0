#pragma once

// The channel selector of the IcebergSink's hash distribution: sends every row to the writer
// subtask its partition hashes to (the partition tuple computed by the table's Partitioner, as
// the writers compute it), so that each partition is written by one writer and the table gets few
// files per partition and checkpoint. Skewed partitions make skewed writers, as in Flink.
//
// What can go wrong: Make fails when the spec cannot partition rows of this batch schema
// (Partitioner::Make's errors); SelectChannels fails on batches of another schema.

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/stream/exchange.h"

namespace floe::table {
class Partitioner;
}

namespace floe::stream {

class PartitionChannelSelector : public ChannelSelector {
 public:
  static Result<std::unique_ptr<PartitionChannelSelector>> Make(PartitionSpecPtr spec,
                                                                SchemaPtr schema,
                                                                BatchSchemaPtr batch_schema);
  ~PartitionChannelSelector() override;

  Status SelectChannels(const RecordBatch& batch, int num_channels,
                        std::vector<int32_t>& channels) override;

 private:
  PartitionChannelSelector() = default;

  std::unique_ptr<table::Partitioner> partitioner_;
  std::vector<uint64_t> hash_of_partition_;  // by partition id
  std::vector<uint32_t> partition_of_row_;
};

}  // namespace floe::stream
