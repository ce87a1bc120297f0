#include <algorithm>
#include <chrono>
#include <limits>
#include <utility>

#include "floe/stream/metrics.h"
#include "floe/stream/runtime/task_internal.h"

namespace floe::stream::runtime {
namespace {

// How long an idle reader waits for mail before polling again.
constexpr std::chrono::milliseconds kIdleWait{10};

}  // namespace

Task::Task(JobControl& control, int node, OperatorContext context, std::unique_ptr<InputGate> gate,
           std::unique_ptr<TaskOutput> output)
    : control_(control),
      node_(node),
      context_(std::move(context)),
      gate_(std::move(gate)),
      output_(std::move(output)) {}

Task::~Task() { Join(); }

void Task::Start() {
  thread_ = std::thread([this] {
    Status status = Run();
    if (status) {
      control_.Finished(node_, context_.subtask_index);
    } else {
      Error error = std::move(status).error();
      error.AddContext(fmt::format("{} ({}/{})", context_.operator_name, context_.subtask_index + 1,
                                   context_.parallelism));
      control_.Failed(node_, context_.subtask_index, std::move(error));
    }
  });
}

void Task::Join() {
  if (thread_.joinable()) thread_.join();
}

SourceTask::SourceTask(JobControl& control, int node, OperatorContext context,
                       std::unique_ptr<InputGate> gate, std::unique_ptr<TaskOutput> output,
                       std::shared_ptr<Source> source)
    : Task(control, node, std::move(context), std::move(gate), std::move(output)),
      source_(std::move(source)) {}

void SourceTask::RequestSplit() { control_.RequestSplit(node_, context_.subtask_index); }

void SourceTask::AddSplits(std::vector<std::any> splits) { reader_->AddSplits(std::move(splits)); }

void SourceTask::NotifyNoMoreSplits() { reader_->NotifyNoMoreSplits(); }

Status SourceTask::TriggerCheckpoint(const CheckpointBarrier& barrier) {
  FLOE_ASSIGN_OR_RETURN(std::vector<std::string> state,
                        reader_->SnapshotState(barrier.checkpoint_id));
  control_.Acknowledge(node_, context_.subtask_index, barrier.checkpoint_id, std::move(state));
  std::optional<std::string> position = reader_->Position();
  if (!position) return output_->Broadcast(barrier);
  SourcePositions positions = barrier.positions ? *barrier.positions : SourcePositions{};
  positions[fmt::format("{}.{}", context_.operator_name, context_.subtask_index)] =
      std::move(*position);
  CheckpointBarrier with_position = barrier;
  with_position.positions = std::make_shared<const SourcePositions>(std::move(positions));
  return output_->Broadcast(with_position);
}

void SourceTask::EndInput(std::optional<std::string> enumerator_position) {
  end_input_ = true;
  enumerator_position_ = std::move(enumerator_position);
}

Status SourceTask::NotifyCheckpointComplete(int64_t checkpoint_id) {
  return reader_->NotifyCheckpointComplete(checkpoint_id);
}

Status SourceTask::Run() {
  FLOE_ASSIGN_OR_RETURN(reader_, source_->CreateReader(context_.subtask_index));
  FLOE_RETURN_IF_ERROR(reader_->Open(context_, *this));
  const std::vector<bool> no_channels;
  while (true) {
    // Mail first: splits and barriers must not wait behind a reader that always has data.
    while (true) {
      FLOE_ASSIGN_OR_RETURN(InputGate::Next next,
                            gate_->Take(no_channels, std::chrono::milliseconds(0)));
      if (!next.mail) break;
      FLOE_RETURN_IF_ERROR((*next.mail)());
    }
    if (draining_) break;
    FLOE_ASSIGN_OR_RETURN(PollStatus status, reader_->PollNext(*output_));
    if (status == PollStatus::kEnd) break;
    if (status == PollStatus::kNothingNow) {
      FLOE_ASSIGN_OR_RETURN(InputGate::Next next, gate_->Take(no_channels, kIdleWait));
      if (next.mail) FLOE_RETURN_IF_ERROR((*next.mail)());
    }
  }
  // Still taking part in checkpoints until the coordinator lets the input end: the final one.
  control_.ReachedEnd(node_, context_.subtask_index);
  while (!end_input_) {
    FLOE_ASSIGN_OR_RETURN(InputGate::Next next, gate_->Take(no_channels));
    if (next.mail) FLOE_RETURN_IF_ERROR((*next.mail)());
  }
  SourcePositions positions;
  if (enumerator_position_) positions[context_.operator_name] = std::move(*enumerator_position_);
  if (std::optional<std::string> position = reader_->Position()) {
    positions[fmt::format("{}.{}", context_.operator_name, context_.subtask_index)] =
        std::move(*position);
  }
  EndOfInput end;
  if (!positions.empty()) end.positions = std::make_shared<const SourcePositions>(positions);
  return output_->Broadcast(std::move(end));
}

OperatorTask::OperatorTask(JobControl& control, int node, OperatorContext context,
                           std::unique_ptr<InputGate> gate, std::unique_ptr<TaskOutput> output,
                           OperatorFactory factory, std::vector<int> inputs)
    : Task(control, node, std::move(context), std::move(gate), std::move(output)),
      factory_(std::move(factory)),
      inputs_(std::move(inputs)),
      blocked_(inputs_.size(), false),
      ended_(inputs_.size(), false),
      has_barrier_(inputs_.size(), false),
      channel_watermarks_(inputs_.size(), std::numeric_limits<int64_t>::min()),
      channel_idle_(inputs_.size(), false),
      records_in_(fmt::format("{}.{}.records-in", context_.operator_name, context_.subtask_index)) {
  for (int input : inputs_) {
    if (input >= std::ssize(open_channels_)) open_channels_.resize(input + 1, 0);
    ++open_channels_[input];
  }
}

Status OperatorTask::NotifyCheckpointComplete(int64_t checkpoint_id) {
  return operator_->NotifyCheckpointComplete(checkpoint_id);
}

Status OperatorTask::Run() {
  FLOE_ASSIGN_OR_RETURN(operator_, factory_(context_.subtask_index));
  if (!operator_) return InternalError("the operator factory returned no operator");
  FLOE_RETURN_IF_ERROR(operator_->Open(context_));
  int num_channels = static_cast<int>(inputs_.size());
  while (num_ended_ < num_channels) {
    FLOE_ASSIGN_OR_RETURN(InputGate::Next next, gate_->Take(blocked_));
    if (next.mail) {
      FLOE_RETURN_IF_ERROR((*next.mail)());
      continue;
    }
    int channel = next.channel;
    StreamElement& element = *next.element;
    if (auto* batch = std::get_if<RecordBatch>(&element)) {
      context_.metrics->Add(records_in_, batch->num_rows());
      FLOE_RETURN_IF_ERROR(operator_->ProcessBatch(inputs_[channel], std::move(*batch), *output_));
    } else if (auto* message = std::get_if<Message>(&element)) {
      FLOE_RETURN_IF_ERROR(
          operator_->ProcessMessage(inputs_[channel], std::move(*message), *output_));
    } else if (auto* watermark = std::get_if<Watermark>(&element)) {
      FLOE_RETURN_IF_ERROR(OnWatermark(channel, *watermark));
    } else if (auto* barrier = std::get_if<CheckpointBarrier>(&element)) {
      FLOE_RETURN_IF_ERROR(OnBarrier(channel, *barrier));
    } else {
      FLOE_RETURN_IF_ERROR(OnEnd(channel, std::get<EndOfInput>(element)));
    }
  }
  EndOfInput end;
  if (!end_positions_.empty()) {
    end.positions = std::make_shared<const SourcePositions>(std::exchange(end_positions_, {}));
  }
  FLOE_RETURN_IF_ERROR(operator_->FinishInput(end, *output_));
  return output_->Broadcast(std::move(end));
}

Status OperatorTask::OnBarrier(int channel, const CheckpointBarrier& barrier) {
  if (aligning_ && barrier.checkpoint_id < aligning_->checkpoint_id) return {};
  if (!aligning_ || barrier.checkpoint_id > aligning_->checkpoint_id) {
    // A newer barrier supersedes a checkpoint that was abandoned half-way.
    aligning_ = barrier;
    aligning_->positions.reset();
    aligning_positions_.clear();
    std::fill(has_barrier_.begin(), has_barrier_.end(), false);
    for (size_t i = 0; i < blocked_.size(); ++i) blocked_[i] = ended_[i];
  }
  if (barrier.positions) {
    aligning_positions_.insert(barrier.positions->begin(), barrier.positions->end());
  }
  has_barrier_[channel] = true;
  blocked_[channel] = true;
  return MaybeCompleteAlignment();
}

Status OperatorTask::OnEnd(int channel, const EndOfInput& end) {
  if (end.positions) end_positions_.insert(end.positions->begin(), end.positions->end());
  ended_[channel] = true;
  blocked_[channel] = true;
  ++num_ended_;
  int input = inputs_[channel];
  if (--open_channels_[input] == 0) FLOE_RETURN_IF_ERROR(operator_->EndInput(input, *output_));
  if (num_ended_ < std::ssize(ended_)) FLOE_RETURN_IF_ERROR(AdvanceWatermark());
  return MaybeCompleteAlignment();
}

Status OperatorTask::OnWatermark(int channel, const Watermark& watermark) {
  channel_idle_[channel] = watermark.idle;
  if (!watermark.idle) {
    channel_watermarks_[channel] = std::max(channel_watermarks_[channel], watermark.timestamp_ms);
  }
  return AdvanceWatermark();
}

Status OperatorTask::AdvanceWatermark() {
  std::optional<int64_t> minimum;
  for (size_t i = 0; i < ended_.size(); ++i) {
    if (ended_[i] || channel_idle_[i]) continue;
    minimum = std::min(minimum.value_or(channel_watermarks_[i]), channel_watermarks_[i]);
  }
  if (!minimum) {
    // Every open channel is idle: the ended ones, which send nothing more, set the pace (as
    // Flink's end-of-input watermark does, but only as far as they got).
    int64_t ended = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < ended_.size(); ++i) {
      if (ended_[i]) ended = std::max(ended, channel_watermarks_[i]);
    }
    if (ended != std::numeric_limits<int64_t>::min() && (!watermark_ || ended > *watermark_)) {
      idle_ = false;
      watermark_ = ended;
      return operator_->ProcessWatermark(Watermark{.timestamp_ms = ended}, *output_);
    }
    if (idle_) return {};
    idle_ = true;
    return output_->Broadcast(Watermark{.timestamp_ms = watermark_.value_or(0), .idle = true});
  }
  bool resumed = std::exchange(idle_, false);
  if (*minimum == std::numeric_limits<int64_t>::min() || (watermark_ && *minimum <= *watermark_)) {
    // Active again without progress: downstream counts this subtask again from here.
    if (resumed && watermark_) return output_->Broadcast(Watermark{.timestamp_ms = *watermark_});
    return {};
  }
  watermark_ = *minimum;
  return operator_->ProcessWatermark(Watermark{.timestamp_ms = *minimum}, *output_);
}

Status OperatorTask::MaybeCompleteAlignment() {
  if (!aligning_) return {};
  for (size_t i = 0; i < has_barrier_.size(); ++i) {
    if (!has_barrier_[i] && !ended_[i]) return {};
  }
  CheckpointBarrier barrier = *aligning_;
  aligning_.reset();
  if (!aligning_positions_.empty()) {
    barrier.positions =
        std::make_shared<const SourcePositions>(std::exchange(aligning_positions_, {}));
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<std::string> state,
                        operator_->SnapshotCheckpoint(barrier, *output_));
  control_.Acknowledge(node_, context_.subtask_index, barrier.checkpoint_id, std::move(state));
  FLOE_RETURN_IF_ERROR(output_->Broadcast(barrier));
  for (size_t i = 0; i < blocked_.size(); ++i) blocked_[i] = ended_[i];
  return {};
}

}  // namespace floe::stream::runtime
