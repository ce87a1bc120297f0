#pragma once

// The subtasks of a running job, one thread each. A SourceTask drives a SourceReader between the
// mail the coordinator sends it (splits, checkpoint triggers, notifications); an OperatorTask
// reads its input gate, aligns checkpoint barriers over its channels and drives an Operator. Both
// report to the job's coordinator through JobControl, which is thread-safe.

#include <any>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "floe/stream/operator.h"
#include "floe/stream/runtime/input_gate_internal.h"
#include "floe/stream/runtime/task_output_internal.h"
#include "floe/stream/source.h"

namespace floe::stream::runtime {

class JobControl {
 public:
  virtual ~JobControl() = default;
  virtual void Acknowledge(int node, int subtask, int64_t checkpoint_id,
                           std::vector<std::string> state) = 0;
  virtual void RequestSplit(int node, int subtask) = 0;
  // A source subtask's reader has ended; the subtask waits for EndInput before it sends
  // EndOfInput, so that a final checkpoint can follow all of its data.
  virtual void ReachedEnd(int node, int subtask) = 0;
  virtual void Finished(int node, int subtask) = 0;
  virtual void Failed(int node, int subtask, Error error) = 0;
};

class Task {
 public:
  Task(JobControl& control, int node, OperatorContext context, std::unique_ptr<InputGate> gate,
       std::unique_ptr<TaskOutput> output);
  virtual ~Task();
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  void Start();
  void Join();

  InputGate& gate() { return *gate_; }
  TaskOutput& output() { return *output_; }
  int node() const { return node_; }
  const OperatorContext& context() const { return context_; }

  // Mail handlers: they run on the task's thread.
  virtual Status NotifyCheckpointComplete(int64_t checkpoint_id) = 0;

 protected:
  virtual Status Run() = 0;

  JobControl& control_;
  int node_;
  OperatorContext context_;
  std::unique_ptr<InputGate> gate_;
  std::unique_ptr<TaskOutput> output_;

 private:
  std::thread thread_;
};

class SourceTask : public Task, private SourceReaderContext {
 public:
  SourceTask(JobControl& control, int node, OperatorContext context,
             std::unique_ptr<InputGate> gate, std::unique_ptr<TaskOutput> output,
             std::shared_ptr<Source> source);

  void AddSplits(std::vector<std::any> splits);
  void NotifyNoMoreSplits();
  // Snapshots the reader, acknowledges, and sends the barrier after what was emitted so far.
  Status TriggerCheckpoint(const CheckpointBarrier& barrier);
  Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  // After ReachedEnd: the subtask may send EndOfInput and finish. `enumerator_position` is the
  // source's enumerator's final position, sent with the reader's in the EndOfInput.
  void EndInput(std::optional<std::string> enumerator_position);
  // The reader reads no more: the subtask reaches its end where it is, as a bounded one does.
  void Drain() { draining_ = true; }

 protected:
  Status Run() override;

 private:
  void RequestSplit() override;

  std::shared_ptr<Source> source_;
  std::unique_ptr<SourceReader> reader_;
  bool draining_ = false;
  bool end_input_ = false;
  std::optional<std::string> enumerator_position_;
};

class OperatorTask : public Task {
 public:
  // inputs[channel] is the operator input that channel feeds.
  OperatorTask(JobControl& control, int node, OperatorContext context,
               std::unique_ptr<InputGate> gate, std::unique_ptr<TaskOutput> output,
               OperatorFactory factory, std::vector<int> inputs);

  Status NotifyCheckpointComplete(int64_t checkpoint_id) override;

 protected:
  Status Run() override;

 private:
  Status OnBarrier(int channel, const CheckpointBarrier& barrier);
  Status OnEnd(int channel, const EndOfInput& end);
  Status OnWatermark(int channel, const Watermark& watermark);
  // The minimum watermark over the channels that are neither ended nor idle, to the operator when
  // it advances; the idle status downstream when every open channel is idle.
  Status AdvanceWatermark();
  // Snapshots once every channel has delivered the barrier or ended.
  Status MaybeCompleteAlignment();

  OperatorFactory factory_;
  std::vector<int> inputs_;
  std::unique_ptr<Operator> operator_;
  std::vector<bool> blocked_;
  std::vector<bool> ended_;
  int num_ended_ = 0;
  std::vector<int> open_channels_;  // by input: channels that have not ended
  std::optional<CheckpointBarrier> aligning_;
  SourcePositions aligning_positions_;  // merged from the barriers of every channel
  SourcePositions end_positions_;       // merged from the ends of every channel
  std::vector<bool> has_barrier_;
  std::vector<int64_t> channel_watermarks_;
  std::vector<bool> channel_idle_;
  std::optional<int64_t> watermark_;  // the last one the operator got
  bool idle_ = false;                 // the idle status was sent downstream
  std::string records_in_;
};

}  // namespace floe::stream::runtime
