#include <utility>

#include "floe/batch/hash.h"
#include "floe/batch/take.h"
#include "floe/stream/runtime/task_output_internal.h"

namespace floe::stream::runtime {

TaskOutput::TaskOutput(int subtask, std::vector<Edge> edges, MetricGroup* metrics,
                       std::string metric_prefix)
    : subtask_(subtask),
      edges_(std::move(edges)),
      metrics_(metrics),
      records_out_(std::move(metric_prefix) + "records-out") {}

Status TaskOutput::Emit(RecordBatch batch) {
  metrics_->Add(records_out_, batch.num_rows());
  for (size_t i = 0; i < edges_.size(); ++i) {
    // The last edge may take the batch itself; copies only share buffers anyway.
    FLOE_RETURN_IF_ERROR(Route(edges_[i], i + 1 == edges_.size() ? std::move(batch) : batch));
  }
  return {};
}

Status TaskOutput::EmitMessage(Message message, int channel) {
  for (Edge& edge : edges_) {
    int n = static_cast<int>(edge.targets.size());
    const ChannelTarget& target = edge.targets[((channel % n) + n) % n];
    FLOE_RETURN_IF_ERROR(target.gate->Push(target.channel, message));
  }
  return {};
}

Status TaskOutput::Broadcast(const StreamElement& element) {
  for (Edge& edge : edges_) {
    for (const ChannelTarget& target : edge.targets) {
      FLOE_RETURN_IF_ERROR(target.gate->Push(target.channel, element));
    }
  }
  return {};
}

Status TaskOutput::Route(Edge& edge, RecordBatch batch) {
  int n = static_cast<int>(edge.targets.size());
  switch (edge.exchange.kind) {
    case Exchange::Kind::kForward: {
      const ChannelTarget& target = edge.targets[subtask_ % n];
      return target.gate->Push(target.channel, std::move(batch));
    }
    case Exchange::Kind::kRebalance: {
      const ChannelTarget& target = edge.targets[edge.next];
      edge.next = (edge.next + 1) % n;
      return target.gate->Push(target.channel, std::move(batch));
    }
    case Exchange::Kind::kBroadcast:
      for (const ChannelTarget& target : edge.targets) {
        FLOE_RETURN_IF_ERROR(target.gate->Push(target.channel, batch));
      }
      return {};
    case Exchange::Kind::kHash: {
      FLOE_RETURN_IF_ERROR(HashRows(batch, edge.key_indices, hashes_));
      channels_.resize(hashes_.size());
      for (size_t i = 0; i < hashes_.size(); ++i) {
        channels_[i] = static_cast<int32_t>(hashes_[i] % static_cast<uint64_t>(n));
      }
      return Split(edge, batch, channels_);
    }
    case Exchange::Kind::kCustom: {
      channels_.assign(static_cast<size_t>(batch.num_rows()), 0);
      FLOE_RETURN_IF_ERROR(edge.selector->SelectChannels(batch, n, channels_));
      if (std::ssize(channels_) != batch.num_rows()) {
        return InvalidArgument("channel selector returned {} channels for {} rows",
                               channels_.size(), batch.num_rows());
      }
      for (int32_t channel : channels_) {
        if (channel < 0 || channel >= n) {
          return InvalidArgument("channel selector chose channel {} of {}", channel, n);
        }
      }
      return Split(edge, batch, channels_);
    }
  }
  return InternalError("unknown exchange kind");
}

Status TaskOutput::Split(Edge& edge, const RecordBatch& batch,
                         const std::vector<int32_t>& channels) {
  int n = static_cast<int>(edge.targets.size());
  if (n == 1) return edge.targets[0].gate->Push(edge.targets[0].channel, batch);
  rows_.resize(static_cast<size_t>(n));
  for (auto& rows : rows_) rows.clear();
  for (size_t i = 0; i < channels.size(); ++i)
    rows_[channels[i]].push_back(static_cast<int64_t>(i));
  for (int channel = 0; channel < n; ++channel) {
    const std::vector<int64_t>& rows = rows_[channel];
    if (rows.empty()) continue;
    const ChannelTarget& target = edge.targets[channel];
    if (std::ssize(rows) == batch.num_rows()) {
      FLOE_RETURN_IF_ERROR(target.gate->Push(target.channel, batch));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch part, TakeBatch(batch, rows));
    FLOE_RETURN_IF_ERROR(target.gate->Push(target.channel, std::move(part)));
  }
  return {};
}

}  // namespace floe::stream::runtime
