#pragma once

// What the hash joins (Join, MarkJoin) share: the checks of their inputs, how their two inputs
// reach the subtasks, and the input handling of their operator. Input 1 (the build side) is read
// to its end before any row of input 0 (the probe side) can be answered, so probe batches that
// arrive earlier are held back and probed, in arrival order, once the build side has ended. A join
// implements Build and Probe; what it holds is its own.

#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/operator.h"

namespace floe::sql::exec {

// Batch mode (`what` is only supported in batch mode), both inputs of one job, as many left as
// right key columns, each in range, and pairwise of equal types (cast first); `what` names the
// join in the errors.
Status CheckJoinInputs(const stream::DataStream& left, const stream::DataStream& right,
                       const std::vector<int>& left_keys, const std::vector<int>& right_keys,
                       std::string_view what);

// The join's operators over its inputs: with `broadcast`, each subtask of the left (which keeps
// its parallelism) gets the whole right side; otherwise both sides are hash-partitioned on their
// keys.
stream::DataStream ConnectJoin(const stream::DataStream& left, const stream::DataStream& right,
                               const std::vector<int>& left_keys,
                               const std::vector<int>& right_keys, bool broadcast, std::string name,
                               BatchSchemaPtr output, stream::OperatorFactory factory);

class BuildProbeOperator : public stream::Operator {
 public:
  Status ProcessBatch(int input, RecordBatch batch, stream::Output& output) final {
    if (batch.num_rows() == 0) return {};
    if (input == 1) return Build(std::move(batch));
    if (!built_) {
      held_.push_back(std::move(batch));
      return {};
    }
    return Probe(batch, output);
  }

  Status EndInput(int input, stream::Output& output) final {
    if (input != 1) return {};
    built_ = true;
    for (const RecordBatch& batch : held_) FLOE_RETURN_IF_ERROR(Probe(batch, output));
    held_.clear();
    return {};
  }

 protected:
  virtual Status Build(RecordBatch batch) = 0;
  virtual Status Probe(const RecordBatch& batch, stream::Output& output) = 0;

 private:
  bool built_ = false;
  std::vector<RecordBatch> held_;
};

}  // namespace floe::sql::exec
