#pragma once

// The Output of one subtask: routes what the operator emits to the input gates of the downstream
// subtasks, one routing rule per outgoing edge (see exchange.h). Used from the subtask's own thread
// only. Batches are split by row for hash and custom exchanges; each part keeps its row kinds.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/stream/exchange.h"
#include "floe/stream/metrics.h"
#include "floe/stream/operator.h"
#include "floe/stream/runtime/input_gate_internal.h"

namespace floe::stream::runtime {

// Where one downstream subtask reads this subtask's output on one edge.
struct ChannelTarget {
  InputGate* gate = nullptr;
  int channel = 0;
};

class TaskOutput : public Output {
 public:
  struct Edge {
    Exchange exchange;
    std::vector<ChannelTarget> targets;  // by downstream subtask
    std::vector<int> key_indices;        // kHash: the key columns in the batch
    std::unique_ptr<ChannelSelector> selector;
    int next = 0;  // kRebalance: the next target
  };

  // `subtask` picks the forward target; records-out is counted under `metric_prefix`.
  TaskOutput(int subtask, std::vector<Edge> edges, MetricGroup* metrics, std::string metric_prefix);

  Status Emit(RecordBatch batch) override;
  Status EmitMessage(Message message, int channel = 0) override;
  Status EmitWatermark(Watermark watermark) override { return Broadcast(watermark); }
  // Watermarks, barriers and end of input go to every channel of every edge.
  Status Broadcast(const StreamElement& element);

 private:
  Status Route(Edge& edge, RecordBatch batch);
  Status Split(Edge& edge, const RecordBatch& batch, const std::vector<int32_t>& channels);

  int subtask_;
  std::vector<Edge> edges_;
  MetricGroup* metrics_;
  std::string records_out_;
  std::vector<uint64_t> hashes_;
  std::vector<int32_t> channels_;
  std::vector<std::vector<int64_t>> rows_;
};

}  // namespace floe::stream::runtime
