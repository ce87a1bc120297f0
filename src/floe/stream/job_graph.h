#pragma once

// The graph a StreamEnvironment builds and the runtime executes: nodes are sources or operators,
// each run as `parallelism` subtasks; edges carry one node's output to another node's input through
// an Exchange. Nodes are added in topological order (an edge always points to a newer node), so a
// cycle cannot be built. Validate() reports what would make the job fail at run time.

#include <memory>
#include <string>
#include <vector>

#include "floe/stream/data_stream.h"
#include "floe/stream/exchange.h"
#include "floe/stream/operator.h"
#include "floe/stream/source.h"

namespace floe::stream {

struct JobNode {
  int id = 0;
  std::string name;  // unique in the job: it names the node's state in checkpoints
  int parallelism = 1;
  BatchSchemaPtr schema;           // its output (null for a sink)
  std::shared_ptr<Source> source;  // set for sources
  OperatorFactory factory;         // set for operators
  std::vector<int> inputs;         // edge ids, by input index
  std::vector<int> outputs;        // edge ids
};

struct JobEdge {
  int id = 0;
  int from = 0;
  int to = 0;
  int input_index = 0;  // which input of `to` this edge feeds
  Exchange exchange;
};

class JobGraph {
 public:
  int AddSource(std::string name, std::shared_ptr<Source> source, int parallelism);
  int AddOperator(std::string name, BatchSchemaPtr schema, OperatorFactory factory,
                  int parallelism);
  void Connect(int from, int to, Exchange exchange);

  const std::vector<JobNode>& nodes() const { return nodes_; }
  const std::vector<JobEdge>& edges() const { return edges_; }
  const JobNode& node(int id) const { return nodes_[id]; }
  const JobEdge& edge(int id) const { return edges_[id]; }

  // kInvalidArgument naming the node: duplicate names, a parallelism below 1, an unknown key
  // column, a forward exchange between different parallelisms, an unbounded source in batch mode,
  // a source nobody reads... and for the config: checkpoints without a folder.
  Status Validate(const ExecutionConfig& config) const;

 private:
  std::vector<JobNode> nodes_;
  std::vector<JobEdge> edges_;
};

}  // namespace floe::stream
