#include <utility>

#include "floe/batch/hash.h"
#include "floe/sql/exec/key_partition_internal.h"

namespace floe::sql::exec {
namespace {

class ColumnsSelector : public stream::ChannelSelector {
 public:
  explicit ColumnsSelector(std::shared_ptr<const std::vector<int>> columns)
      : columns_(std::move(columns)) {}
  Status SelectChannels(const RecordBatch& batch, int num_channels,
                        std::vector<int32_t>& channels) override {
    if (num_channels == 1) {
      channels.assign(static_cast<size_t>(batch.num_rows()), 0);
      return {};
    }
    FLOE_RETURN_IF_ERROR(HashRows(batch, *columns_, hashes_));
    channels.resize(hashes_.size());
    for (size_t i = 0; i < hashes_.size(); ++i) {
      channels[i] = static_cast<int32_t>(hashes_[i] % static_cast<uint64_t>(num_channels));
    }
    return {};
  }

 private:
  std::shared_ptr<const std::vector<int>> columns_;
  std::vector<uint64_t> hashes_;
};

}  // namespace

stream::DataStream PartitionByColumns(const stream::DataStream& input, std::vector<int> columns) {
  auto shared = std::make_shared<const std::vector<int>>(std::move(columns));
  return input.PartitionCustom([shared](int) -> Result<std::unique_ptr<stream::ChannelSelector>> {
    return std::make_unique<ColumnsSelector>(shared);
  });
}

}  // namespace floe::sql::exec
