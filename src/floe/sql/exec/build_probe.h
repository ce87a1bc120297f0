#pragma once

// The input handling of the hash joins: input 1 (the build side) is read to its end before any
// row of input 0 (the probe side) can be answered, so probe batches that arrive earlier are held
// back and probed, in arrival order, once the build side has ended. A join implements Build and
// Probe; what it holds is its own.

#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/stream/operator.h"

namespace floe::sql::exec {

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
