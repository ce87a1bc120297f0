#pragma once

// The contract between the runtime and the code it runs. A job is a graph of operators, each run as
// `parallelism` subtasks, one thread per subtask. Sources are described in source.h.
//
// Checkpoints (aligned, exactly once). The runtime calls an operator's methods from its subtask's
// thread only, so an operator needs no locking of its own:
//   1. When barrier N has arrived on every input channel, SnapshotState(N, output) runs. The
//      operator emits there whatever must precede the barrier (a writer closes its files and emits
//      them to the committer) and returns its state as entries of bytes; then the runtime forwards
//      the barrier.
//   2. When every subtask of the job has snapshotted N and the completion record of N is durable,
//      NotifyCheckpointComplete(N) runs (phase two of a two-phase commit: a committer commits).
//      Notifications may be skipped for a checkpoint when a later one completes first: an operator
//      must handle N as "everything up to N".
//   3. After a failure or a restart, Open receives the state entries of the checkpoint the job
//      resumes from. When the parallelism changed, the entries of all old subtasks are dealt out
//      round-robin to the new ones, so an entry must make sense on its own (like Flink's operator
//      list state).
//
// Watermarks (event time, stream_element.h). Sources emit them (SourceReader::PollNext through
// Output::EmitWatermark; watermark_source.h derives them from a time column); an operator's
// watermark is the minimum over its input channels (over every input: unions and joins align on
// the slowest), leaving out channels that ended or are idle (when all open ones are idle, the
// ended ones count with their last watermark). Each time that minimum advances, the
// runtime calls ProcessWatermark with it, from the subtask's thread between two batches; the
// default forwards it. An operator that buffers by event time (a window) emits what the watermark
// completes, then forwards it. When all of its channels are idle the runtime forwards the idle
// status itself. Watermarks are not part of checkpoints: an operator that needs its last one after
// a restore keeps it in its state. In batch mode there are none; Finish ends every window.
//
// Errors: a Status error from any method fails the job; the restart strategy decides what then.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/stream/stream_element.h"
#include "floe/util/error.h"

namespace floe::stream {

class MetricGroup;

// Where a subtask's output goes: to every downstream operator, through its exchange. Emit blocks
// while the downstream buffers are full (backpressure) and fails once the job is being cancelled.
class Output {
 public:
  virtual ~Output() = default;
  virtual Status Emit(RecordBatch batch) = 0;
  // Messages go to one downstream subtask: `channel` modulo the downstream parallelism.
  virtual Status EmitMessage(Message message, int channel = 0) = 0;
  // To every downstream subtask. Outputs that carry no time (test collectors of rows) ignore it.
  virtual Status EmitWatermark(Watermark /*watermark*/) { return {}; }
};

struct OperatorContext {
  std::string job_name;
  std::string operator_name;  // unique within the job; names the operator's state
  int subtask_index = 0;
  int parallelism = 1;
  bool streaming = true;  // false in batch mode (bounded inputs only, no checkpoints)
  // The checkpoint the job resumes from (nullopt on a fresh start) and this subtask's share of the
  // operator's state in it.
  std::optional<int64_t> restored_checkpoint_id;
  std::vector<std::string> restored_state;
  MetricGroup* metrics = nullptr;  // never null while the job runs
};

class Operator {
 public:
  virtual ~Operator() = default;

  virtual Status Open(const OperatorContext& /*context*/) { return {}; }
  // A batch from upstream; `input` is the index of the input for operators with several.
  virtual Status ProcessBatch(int input, RecordBatch batch, Output& output) = 0;
  virtual Status ProcessMessage(int /*input*/, Message /*message*/, Output& /*output*/) {
    return Unsupported("operator takes no messages");
  }
  // The operator's watermark advanced to `watermark` (never idle): see the top of this file.
  virtual Status ProcessWatermark(Watermark watermark, Output& output) {
    return output.EmitWatermark(watermark);
  }
  virtual Result<std::vector<std::string>> SnapshotState(int64_t /*checkpoint_id*/,
                                                         Output& /*output*/) {
    return std::vector<std::string>{};
  }
  // What the runtime calls at a barrier: SnapshotState, unless the operator needs the barrier
  // itself (a committer records the upstream source positions it carries).
  virtual Result<std::vector<std::string>> SnapshotCheckpoint(const CheckpointBarrier& barrier,
                                                              Output& output) {
    return SnapshotState(barrier.checkpoint_id, output);
  }
  virtual Status NotifyCheckpointComplete(int64_t /*checkpoint_id*/) { return {}; }
  // Input `input` has ended (every upstream subtask of it sent its end): no batch of it follows.
  // For operators with several inputs, e.g. a hash join that builds from one input before it
  // probes with the other. Called for each input, the last one just before Finish.
  virtual Status EndInput(int /*input*/, Output& /*output*/) { return {}; }
  // Every input has ended: emit what is left. Not called when the job is cancelled or fails.
  virtual Status Finish(Output& /*output*/) { return {}; }
  // What the runtime calls when every input has ended: Finish, unless the operator needs the
  // final source positions the ends carry (a committer records them with its last commit).
  virtual Status FinishInput(const EndOfInput& /*end*/, Output& output) { return Finish(output); }
};

// Makes the operator of one subtask (called once per subtask, and again on every restart).
using OperatorFactory = std::function<Result<std::unique_ptr<Operator>>(int subtask_index)>;

}  // namespace floe::stream
