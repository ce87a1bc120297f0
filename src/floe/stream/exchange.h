#pragma once

// How the batches of one operator's subtasks are distributed over the next operator's subtasks.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "floe/batch/record_batch.h"

namespace floe::stream {

// Sends each row of a batch to one channel; used for partition-aware distribution (the Iceberg
// sink's hash and range modes). One selector per upstream subtask, made by the factory.
class ChannelSelector {
 public:
  virtual ~ChannelSelector() = default;
  // Fills channels[row] in [0, num_channels) for every row of the batch.
  virtual Status SelectChannels(const RecordBatch& batch, int num_channels,
                                std::vector<int32_t>& channels) = 0;
};
using ChannelSelectorFactory =
    std::function<Result<std::unique_ptr<ChannelSelector>>(int upstream_subtask)>;

struct Exchange {
  enum class Kind {
    kForward,    // subtask i to subtask i (same parallelism); the default when parallelism matches
    kRebalance,  // whole batches round-robin; the default otherwise
    kHash,       // rows by the hash of `key_columns`: equal keys meet in one subtask
    kBroadcast,  // every batch to every subtask
    kCustom,     // rows by `selector`
  };
  Kind kind = Kind::kForward;
  std::vector<std::string> key_columns;  // kHash
  ChannelSelectorFactory selector;       // kCustom
};

}  // namespace floe::stream
