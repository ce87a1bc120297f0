#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include "floe/stream/runtime/job_run_internal.h"
#include "floe/util/clock.h"

namespace floe::stream::runtime {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kTickInterval{100};

std::string EnumeratorStateName(const std::string& source_name) {
  return source_name + "#enumerator";
}

}  // namespace

std::vector<std::string> StateShare(const OperatorState& state, int subtask, int parallelism) {
  if (std::ssize(state.subtasks) == parallelism) return state.subtasks[subtask];
  std::vector<std::string> share;
  int64_t k = 0;
  for (const std::vector<std::string>& entries : state.subtasks) {
    for (const std::string& entry : entries) {
      if (k++ % parallelism == subtask) share.push_back(entry);
    }
  }
  return share;
}

class JobRun::EnumeratorContext : public SplitEnumeratorContext {
 public:
  EnumeratorContext(JobRun& run, int node) : run_(run), node_(node) {}

  int parallelism() const override { return run_.graph_.node(node_).parallelism; }
  std::vector<int> WaitingReaders() const override { return {waiting_.begin(), waiting_.end()}; }

  void AssignSplits(int subtask, std::vector<std::any> splits) override {
    SourceTask* task = Reader(subtask);
    if (!task) return;
    waiting_.erase(subtask);
    run_.DeliverToReader(node_, subtask, [task, splits = std::move(splits)]() mutable {
      task->AddSplits(std::move(splits));
      return Status();
    });
  }

  void SignalNoMoreSplits(int subtask) override {
    SourceTask* task = Reader(subtask);
    if (!task) return;
    run_.DeliverToReader(node_, subtask, [task] {
      task->NotifyNoMoreSplits();
      return Status();
    });
  }

  void AddWaiting(int subtask) { waiting_.insert(subtask); }
  // A misuse by the enumerator, reported after its call returns.
  std::optional<Error> TakeError() { return std::exchange(error_, std::nullopt); }

 private:
  SourceTask* Reader(int subtask) {
    if (subtask < 0 || subtask >= parallelism()) {
      error_ = Error(ErrorKind::kInvalidArgument,
                     fmt::format("source '{}': the enumerator assigned to reader {} of {}",
                                 run_.graph_.node(node_).name, subtask, parallelism()));
      return nullptr;
    }
    return static_cast<SourceTask*>(run_.tasks_[node_][subtask].get());
  }

  JobRun& run_;
  int node_;
  std::set<int> waiting_;
  std::optional<Error> error_;
};

JobRun::JobRun(JobRunOptions options)
    : options_(std::move(options)),
      graph_(*options_.graph),
      config_(*options_.config),
      checkpointing_(config_.mode == RuntimeMode::kStreaming &&
                     config_.checkpoint_interval_ms > 0 && options_.storage != nullptr) {}

JobRun::~JobRun() { Stop(); }

void JobRun::Acknowledge(int node, int subtask, int64_t checkpoint_id,
                         std::vector<std::string> state) {
  Post(AckEvent{node, subtask, checkpoint_id, std::move(state)});
}
void JobRun::RequestSplit(int node, int subtask) { Post(SplitRequestEvent{node, subtask}); }
void JobRun::ReachedEnd(int node, int subtask) { Post(ReachedEndEvent{node, subtask}); }
void JobRun::Finished(int node, int subtask) { Post(FinishedEvent{node, subtask}); }
void JobRun::Failed(int, int, Error error) { Post(FailedEvent{std::move(error)}); }

void JobRun::Post(Event event) {
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(event));
  cv_.notify_one();
}

void JobRun::Cancel() { Post(CancelEvent{}); }

Result<std::future<Result<std::string>>> JobRun::RequestSavepoint(std::string folder) {
  if (config_.mode != RuntimeMode::kStreaming || options_.storage == nullptr) {
    return InvalidArgument("savepoints need streaming mode and a checkpoint_dir");
  }
  auto promise = std::make_shared<std::promise<Result<std::string>>>();
  std::future<Result<std::string>> future = promise->get_future();
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return InvalidArgument("job '{}' is not running", options_.job_name);
    events_.push_back(SavepointEvent{std::move(folder), promise});
    cv_.notify_one();
  }
  return future;
}

Status JobRun::Run() {
  Status status = Build();
  if (status) status = StartEnumerators();
  if (status) {
    for (auto& subtasks : tasks_) {
      for (auto& task : subtasks) task->Start();
    }
    status = Coordinate();
  }
  Stop();
  return status;
}

Status JobRun::Build() {
  const auto& nodes = graph_.nodes();
  int capacity = config_.channel_capacity;
  // Channels of an operator's gate: for each input edge, one per upstream subtask.
  std::vector<int> channel_base(graph_.edges().size(), 0);
  std::vector<std::vector<std::unique_ptr<InputGate>>> gates(nodes.size());
  std::vector<std::vector<int>> channel_inputs(nodes.size());
  for (const JobNode& node : nodes) {
    for (int edge_id : node.inputs) {
      const JobEdge& edge = graph_.edge(edge_id);
      channel_base[edge_id] = static_cast<int>(channel_inputs[node.id].size());
      channel_inputs[node.id].insert(channel_inputs[node.id].end(),
                                     graph_.node(edge.from).parallelism, edge.input_index);
    }
    for (int s = 0; s < node.parallelism; ++s) {
      gates[node.id].push_back(
          std::make_unique<InputGate>(static_cast<int>(channel_inputs[node.id].size()), capacity));
    }
  }

  JobControl& control = *this;
  tasks_.resize(nodes.size());
  held_.resize(nodes.size());
  for (const JobNode& node : nodes) {
    const OperatorState* restored_state = nullptr;
    if (options_.restore) {
      auto it = options_.restore->operators.find(node.name);
      if (it != options_.restore->operators.end()) restored_state = &it->second;
    }
    if (node.source) {
      held_[node.id].resize(node.parallelism);
      source_subtasks_ += node.parallelism;
    }
    for (int s = 0; s < node.parallelism; ++s) {
      std::vector<TaskOutput::Edge> edges;
      for (int edge_id : node.outputs) {
        const JobEdge& edge = graph_.edge(edge_id);
        TaskOutput::Edge out;
        out.exchange = edge.exchange;
        for (auto& gate : gates[edge.to]) {
          out.targets.push_back({gate.get(), channel_base[edge_id] + s});
        }
        for (const std::string& key : edge.exchange.key_columns) {
          out.key_indices.push_back(node.schema->FindFieldIndex(key));
        }
        if (edge.exchange.kind == Exchange::Kind::kCustom) {
          FLOE_ASSIGN_OR_RETURN(out.selector, edge.exchange.selector(s));
          if (!out.selector) {
            return InvalidArgument("custom exchange after '{}': the factory made no selector",
                                   node.name);
          }
        }
        out.next = s % static_cast<int>(out.targets.size());
        edges.push_back(std::move(out));
      }
      auto output = std::make_unique<TaskOutput>(s, std::move(edges), options_.metrics,
                                                 fmt::format("{}.{}.", node.name, s));
      OperatorContext context;
      context.job_name = options_.job_name;
      context.operator_name = node.name;
      context.subtask_index = s;
      context.parallelism = node.parallelism;
      context.streaming = config_.mode == RuntimeMode::kStreaming;
      context.metrics = options_.metrics;
      if (options_.restore) {
        context.restored_checkpoint_id = options_.restore->checkpoint_id;
        if (restored_state)
          context.restored_state = StateShare(*restored_state, s, node.parallelism);
      }
      std::unique_ptr<Task> task;
      if (node.source) {
        task = std::make_unique<SourceTask>(control, node.id, std::move(context),
                                            std::move(gates[node.id][s]), std::move(output),
                                            node.source);
      } else {
        task = std::make_unique<OperatorTask>(control, node.id, std::move(context),
                                              std::move(gates[node.id][s]), std::move(output),
                                              node.factory, channel_inputs[node.id]);
      }
      tasks_[node.id].push_back(std::move(task));
      ++total_subtasks_;
    }
  }
  if (options_.storage) {
    FLOE_ASSIGN_OR_RETURN(next_checkpoint_id_, options_.storage->NextCheckpointId());
  }
  if (options_.restore) {
    next_checkpoint_id_ = std::max(next_checkpoint_id_, options_.restore->checkpoint_id + 1);
  }
  return {};
}

Status JobRun::StartEnumerators() {
  enumerators_.resize(graph_.nodes().size());
  enumerator_contexts_.resize(graph_.nodes().size());
  for (const JobNode& node : graph_.nodes()) {
    if (!node.source) continue;
    std::optional<std::string> restored;
    if (options_.restore) {
      auto it = options_.restore->operators.find(EnumeratorStateName(node.name));
      if (it != options_.restore->operators.end() && !it->second.subtasks.empty() &&
          !it->second.subtasks[0].empty()) {
        restored = it->second.subtasks[0][0];
      }
    }
    FLOE_ASSIGN_OR_RETURN(enumerators_[node.id], node.source->CreateEnumerator());
    enumerator_contexts_[node.id] = std::make_unique<EnumeratorContext>(*this, node.id);
    Status started = enumerators_[node.id]->Start(*enumerator_contexts_[node.id], restored);
    FLOE_RETURN_IF_ERROR_CTX(started, fmt::format("starting the enumerator of '{}'", node.name));
    if (auto error = enumerator_contexts_[node.id]->TakeError()) return std::unexpected(*error);
  }
  return {};
}

Status JobRun::Coordinate() {
  Clock::time_point next_tick = Clock::now() + kTickInterval;
  auto interval = std::chrono::milliseconds(std::max<int64_t>(config_.checkpoint_interval_ms, 1));
  Clock::time_point next_checkpoint = Clock::now() + interval;
  while (true) {
    std::deque<Event> events;
    {
      std::unique_lock lock(mutex_);
      Clock::time_point deadline = next_tick;
      if (checkpointing_) deadline = std::min(deadline, next_checkpoint);
      cv_.wait_until(lock, deadline, [&] { return !events_.empty(); });
      events.swap(events_);
    }
    for (Event& event : events) FLOE_RETURN_IF_ERROR(Handle(event));
    if (options_.cancel_requested->load()) {
      return Cancelled("job '{}' was cancelled", options_.job_name);
    }
    if (finished_subtasks_ == total_subtasks_) return {};
    if (!draining_ && options_.drain_requested != nullptr && options_.drain_requested->load()) {
      draining_ = true;
      DrainSources();
    }

    Clock::time_point now = Clock::now();
    if (now >= next_tick) {
      for (size_t node = 0; node < enumerators_.size(); ++node) {
        if (!enumerators_[node]) continue;
        FLOE_RETURN_IF_ERROR_CTX(enumerators_[node]->Tick(NowMs()),
                                 fmt::format("enumerator of '{}'", graph_.node(node).name));
        if (auto error = enumerator_contexts_[node]->TakeError()) return std::unexpected(*error);
      }
      next_tick = now + kTickInterval;
    }
    if (!pending_ && !savepoint_requests_.empty()) {
      SavepointEvent request = std::move(savepoint_requests_.front());
      savepoint_requests_.pop_front();
      if (finished_subtasks_ > 0 || final_checkpoint_done_) {
        request.promise->set_value(
            InvalidArgument("job '{}' has finished subtasks: no savepoint", options_.job_name));
      } else {
        FLOE_RETURN_IF_ERROR(TriggerCheckpoint(std::move(request.folder), request.promise));
      }
    }
    // Once every source has reached its end, the final checkpoint is taken at once (again at
    // the interval should it fail): its barriers follow all data, so the sinks commit everything
    // under a durable checkpoint and a restore from it has nothing left to produce.
    bool all_at_end = std::ssize(sources_at_end_) == source_subtasks_;
    if (checkpointing_ && all_at_end && !final_checkpoint_done_ && !pending_ &&
        (!final_checkpoint_tried_ || now >= next_checkpoint)) {
      final_checkpoint_tried_ = true;
      FLOE_RETURN_IF_ERROR(TriggerCheckpoint({}, {}));
      next_checkpoint = now + interval;
    }
    if (checkpointing_ && now >= next_checkpoint) {
      // Checkpoints need every subtask running: a finished one can no longer take part.
      if (!pending_ && finished_subtasks_ == 0 && !final_checkpoint_done_) {
        FLOE_RETURN_IF_ERROR(TriggerCheckpoint({}, {}));
      }
      next_checkpoint = now + interval;
    }
  }
}

Status JobRun::Handle(Event& event) {
  if (auto* ack = std::get_if<AckEvent>(&event)) {
    if (!pending_ || pending_->checkpoint.checkpoint_id != ack->checkpoint_id) return {};
    const JobNode& node = graph_.node(ack->node);
    pending_->checkpoint.operators[node.name].subtasks[ack->subtask] = std::move(ack->state);
    if (node.source) OpenValve(ack->node, ack->subtask);
    if (--pending_->acks_missing == 0) return CompleteCheckpoint();
    return {};
  }
  if (auto* request = std::get_if<SplitRequestEvent>(&event)) {
    enumerator_contexts_[request->node]->AddWaiting(request->subtask);
    FLOE_RETURN_IF_ERROR_CTX(enumerators_[request->node]->HandleSplitRequest(request->subtask),
                             fmt::format("enumerator of '{}'", graph_.node(request->node).name));
    if (auto error = enumerator_contexts_[request->node]->TakeError()) {
      return std::unexpected(*error);
    }
    return {};
  }
  if (auto* reached = std::get_if<ReachedEndEvent>(&event)) {
    sources_at_end_.emplace_back(reached->node, reached->subtask);
    if (!checkpointing_) EndSourceInput(reached->node, reached->subtask);
    return {};
  }
  if (std::holds_alternative<FinishedEvent>(event)) {
    ++finished_subtasks_;
    if (pending_) AbortCheckpoint("a subtask finished before it was complete");
    return {};
  }
  if (auto* failed = std::get_if<FailedEvent>(&event)) return std::unexpected(failed->error);
  if (auto* savepoint = std::get_if<SavepointEvent>(&event)) {
    savepoint_requests_.push_back(std::move(*savepoint));
    return {};
  }
  return Cancelled("job '{}' was cancelled", options_.job_name);
}

Status JobRun::TriggerCheckpoint(std::optional<std::string> savepoint_folder,
                                 SavepointPromise promise) {
  PendingCheckpoint pending;
  pending.checkpoint.checkpoint_id = next_checkpoint_id_++;
  pending.checkpoint.timestamp_ms = NowMs();
  pending.checkpoint.savepoint = savepoint_folder.has_value();
  pending.checkpoint.job_name = options_.job_name;
  pending.acks_missing = total_subtasks_;
  pending.savepoint_folder = std::move(savepoint_folder);
  pending.promise = std::move(promise);
  pending.final = !pending.savepoint_folder && std::ssize(sources_at_end_) == source_subtasks_;
  int64_t id = pending.checkpoint.checkpoint_id;
  for (const JobNode& node : graph_.nodes()) {
    pending.checkpoint.operators[node.name].subtasks.resize(node.parallelism);
    if (!node.source) continue;
    auto state = enumerators_[node.id]->SnapshotState(id);
    if (!state) {
      if (pending.promise) pending.promise->set_value(std::unexpected(state.error()));
      return std::unexpected(
          std::move(state.error().AddContext(fmt::format("enumerator of '{}'", node.name))));
    }
    pending.checkpoint.operators[EnumeratorStateName(node.name)].subtasks = {{*std::move(state)}};
    // Splits assigned from here on belong to the reader's snapshot, not the enumerator's: hold
    // them back until the reader has taken it.
    for (auto& held : held_[node.id]) held.emplace();
  }
  pending_ = std::move(pending);
  for (const JobNode& node : graph_.nodes()) {
    if (!node.source) continue;
    CheckpointBarrier barrier{id, pending_->checkpoint.timestamp_ms,
                              pending_->checkpoint.savepoint};
    if (std::optional<std::string> position = enumerators_[node.id]->Position()) {
      barrier.positions =
          std::make_shared<const SourcePositions>(SourcePositions{{node.name, *position}});
    }
    for (auto& task : tasks_[node.id]) {
      auto* source_task = static_cast<SourceTask*>(task.get());
      task->gate().PostMail(
          [source_task, barrier] { return source_task->TriggerCheckpoint(barrier); });
    }
  }
  return {};
}

Status JobRun::CompleteCheckpoint() {
  PendingCheckpoint done = std::move(*pending_);
  pending_.reset();
  int64_t id = done.checkpoint.checkpoint_id;
  if (done.savepoint_folder) {
    Result<std::string> location =
        options_.storage->WriteSavepoint(done.checkpoint, *done.savepoint_folder);
    bool ok = location.has_value();
    done.promise->set_value(std::move(location));
    if (!ok) {
      options_.metrics->Add(options_.job_name + ".savepoints-failed", 1);
      return {};
    }
  } else {
    Status written = options_.storage->Write(done.checkpoint);
    if (!written) {
      // The previous checkpoint stays the latest; the job goes on and tries again later.
      options_.metrics->Add(options_.job_name + ".checkpoints-failed", 1);
      return {};
    }
    ++checkpoints_completed_;
    options_.metrics->Set(options_.job_name + ".last-checkpoint-id", id);
    last_completed_ = std::move(done.checkpoint);
  }
  for (auto& subtasks : tasks_) {
    for (auto& task : subtasks) {
      Task* target = task.get();
      target->gate().PostMail([target, id] { return target->NotifyCheckpointComplete(id); });
    }
  }
  for (size_t node = 0; node < enumerators_.size(); ++node) {
    if (!enumerators_[node]) continue;
    FLOE_RETURN_IF_ERROR_CTX(enumerators_[node]->NotifyCheckpointComplete(id),
                             fmt::format("enumerator of '{}'", graph_.node(node).name));
  }
  if (done.final) {
    final_checkpoint_done_ = true;
    for (const auto& [node, subtask] : sources_at_end_) EndSourceInput(node, subtask);
  }
  return {};
}

void JobRun::DrainSources() {
  for (const JobNode& node : graph_.nodes()) {
    if (!node.source) continue;
    for (auto& task : tasks_[node.id]) {
      auto* source_task = static_cast<SourceTask*>(task.get());
      source_task->gate().PostMail([source_task] {
        source_task->Drain();
        return Status();
      });
    }
  }
}

void JobRun::EndSourceInput(int node, int subtask) {
  auto* task = static_cast<SourceTask*>(tasks_[node][subtask].get());
  // A reader ends only once its enumerator has no more splits for it: the enumerator's position
  // is final.
  task->gate().PostMail([task, position = enumerators_[node]->Position()]() mutable {
    task->EndInput(std::move(position));
    return Status();
  });
}

void JobRun::AbortCheckpoint(const std::string& why) {
  if (!pending_) return;
  if (pending_->promise) {
    pending_->promise->set_value(InvalidArgument("checkpoint {} of job '{}' was aborted: {}",
                                                 pending_->checkpoint.checkpoint_id,
                                                 options_.job_name, why));
  }
  pending_.reset();
  for (size_t node = 0; node < held_.size(); ++node) {
    for (size_t s = 0; s < held_[node].size(); ++s) OpenValve(node, s);
  }
}

void JobRun::DeliverToReader(int node, int subtask, Mail mail) {
  std::optional<std::vector<Mail>>& held = held_[node][subtask];
  if (held) {
    held->push_back(std::move(mail));
  } else {
    tasks_[node][subtask]->gate().PostMail(std::move(mail));
  }
}

void JobRun::OpenValve(int node, int subtask) {
  std::optional<std::vector<Mail>> held = std::exchange(held_[node][subtask], std::nullopt);
  if (!held) return;
  for (Mail& mail : *held) tasks_[node][subtask]->gate().PostMail(std::move(mail));
}

void JobRun::Stop() {
  std::deque<Event> events;
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  for (auto& subtasks : tasks_) {
    for (auto& task : subtasks) task->gate().Cancel();
  }
  for (auto& subtasks : tasks_) {
    for (auto& task : subtasks) task->Join();
  }
  AbortCheckpoint("the job stopped");
  {
    std::lock_guard lock(mutex_);
    events.swap(events_);
  }
  auto refuse = [&](SavepointEvent& request) {
    request.promise->set_value(
        InvalidArgument("job '{}' stopped before the savepoint was taken", options_.job_name));
  };
  for (SavepointEvent& request : savepoint_requests_) refuse(request);
  savepoint_requests_.clear();
  for (Event& event : events) {
    if (auto* request = std::get_if<SavepointEvent>(&event)) refuse(*request);
  }
}

}  // namespace floe::stream::runtime
