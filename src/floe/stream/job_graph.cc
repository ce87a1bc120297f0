#include "floe/stream/job_graph.h"

#include <set>
#include <utility>

namespace floe::stream {

int JobGraph::AddSource(std::string name, std::shared_ptr<Source> source, int parallelism) {
  JobNode node;
  node.id = static_cast<int>(nodes_.size());
  node.name = std::move(name);
  node.parallelism = parallelism;
  node.schema = source ? source->schema() : nullptr;
  node.source = std::move(source);
  nodes_.push_back(std::move(node));
  return nodes_.back().id;
}

int JobGraph::AddOperator(std::string name, BatchSchemaPtr schema, OperatorFactory factory,
                          int parallelism) {
  JobNode node;
  node.id = static_cast<int>(nodes_.size());
  node.name = std::move(name);
  node.parallelism = parallelism;
  node.schema = std::move(schema);
  node.factory = std::move(factory);
  nodes_.push_back(std::move(node));
  return nodes_.back().id;
}

void JobGraph::Connect(int from, int to, Exchange exchange) {
  JobEdge edge;
  edge.id = static_cast<int>(edges_.size());
  edge.from = from;
  edge.to = to;
  edge.input_index = static_cast<int>(nodes_[to].inputs.size());
  edge.exchange = std::move(exchange);
  nodes_[from].outputs.push_back(edge.id);
  nodes_[to].inputs.push_back(edge.id);
  edges_.push_back(std::move(edge));
}

Status JobGraph::Validate(const ExecutionConfig& config) const {
  if (nodes_.empty()) return InvalidArgument("the job has no operators");
  if (config.checkpoint_interval_ms < 0) {
    return InvalidArgument("checkpoint interval {} ms is negative", config.checkpoint_interval_ms);
  }
  bool checkpoints = config.mode == RuntimeMode::kStreaming && config.checkpoint_interval_ms > 0;
  if (checkpoints && config.checkpoint_dir.empty()) {
    return InvalidArgument("checkpoints every {} ms need a checkpoint_dir",
                           config.checkpoint_interval_ms);
  }
  if (config.restore_from && config.checkpoint_dir.empty()) {
    return InvalidArgument("restoring from '{}' needs a checkpoint_dir", *config.restore_from);
  }
  if (config.channel_capacity < 1) {
    return InvalidArgument("channel capacity {} must be at least 1", config.channel_capacity);
  }
  if (config.restart.max_attempts < 0 || config.restart.delay_ms < 0) {
    return InvalidArgument("restart strategy: attempts and delay must not be negative");
  }
  std::set<std::string, std::less<>> names;
  for (const JobNode& node : nodes_) {
    if (!names.insert(node.name).second) {
      return InvalidArgument("two operators are named '{}': names must be unique in a job",
                             node.name);
    }
    if (node.name.empty()) return InvalidArgument("operator {} has an empty name", node.id);
    if (node.parallelism < 1) {
      return InvalidArgument("operator '{}': parallelism {} must be at least 1", node.name,
                             node.parallelism);
    }
    if (node.source) {
      if (config.mode == RuntimeMode::kBatch && !node.source->bounded()) {
        return InvalidArgument("source '{}' is unbounded: batch mode needs bounded sources",
                               node.name);
      }
      if (node.outputs.empty()) {
        return InvalidArgument("source '{}' is read by no operator", node.name);
      }
    } else if (!node.factory) {
      return InvalidArgument("operator '{}' has neither a source nor an operator factory",
                             node.name);
    }
  }
  for (const JobEdge& edge : edges_) {
    const JobNode& from = nodes_[edge.from];
    const JobNode& to = nodes_[edge.to];
    switch (edge.exchange.kind) {
      case Exchange::Kind::kForward:
        if (from.parallelism != to.parallelism) {
          return InvalidArgument(
              "forward exchange from '{}' (parallelism {}) to '{}' (parallelism {}): forward needs "
              "equal parallelism; use Rebalance()",
              from.name, from.parallelism, to.name, to.parallelism);
        }
        break;
      case Exchange::Kind::kHash:
        if (edge.exchange.key_columns.empty()) {
          return InvalidArgument("KeyBy into '{}' names no key column", to.name);
        }
        for (const std::string& key : edge.exchange.key_columns) {
          if (!from.schema || from.schema->FindFieldIndex(key) < 0) {
            return InvalidArgument("KeyBy into '{}': '{}' has no column '{}' (columns: {})",
                                   to.name, from.name, key,
                                   from.schema ? from.schema->ToString() : "none");
          }
        }
        break;
      case Exchange::Kind::kCustom:
        if (!edge.exchange.selector) {
          return InvalidArgument("custom exchange into '{}' has no channel selector", to.name);
        }
        break;
      case Exchange::Kind::kRebalance:
      case Exchange::Kind::kBroadcast:
        break;
    }
  }
  return {};
}

}  // namespace floe::stream
