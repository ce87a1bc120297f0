#include "floe/stream/iceberg/partition_selector.h"

#include "floe/manifest/data_file.h"
#include "floe/table/write/partitioner.h"

namespace floe::stream {
namespace {

// FNV-1a: a hash that is the same in every process, unlike std::hash.
uint64_t Fnv1a(std::string_view bytes) {
  uint64_t h = 1469598103934665603ULL;
  for (char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace

PartitionChannelSelector::~PartitionChannelSelector() = default;

Result<std::unique_ptr<PartitionChannelSelector>> PartitionChannelSelector::Make(
    PartitionSpecPtr spec, SchemaPtr schema, BatchSchemaPtr batch_schema) {
  std::unique_ptr<PartitionChannelSelector> selector(new PartitionChannelSelector());
  FLOE_ASSIGN_OR_RETURN(selector->partitioner_,
                        table::Partitioner::Make(std::move(spec), *schema, *batch_schema));
  return selector;
}

Status PartitionChannelSelector::SelectChannels(const RecordBatch& batch, int num_channels,
                                                std::vector<int32_t>& channels) {
  FLOE_RETURN_IF_ERROR(partitioner_->Assign(batch, partition_of_row_));
  const auto& spec = partitioner_->spec();
  while (hash_of_partition_.size() < partitioner_->num_partitions()) {
    const auto id = static_cast<uint32_t>(hash_of_partition_.size());
    hash_of_partition_.push_back(
        Fnv1a(manifest::PartitionKey(spec->spec_id(), partitioner_->Values(id))));
  }
  channels.resize(partition_of_row_.size());
  for (size_t i = 0; i < partition_of_row_.size(); ++i) {
    channels[i] = static_cast<int32_t>(hash_of_partition_[partition_of_row_[i]] %
                                       static_cast<uint64_t>(num_channels));
  }
  return Ok();
}

}  // namespace floe::stream
