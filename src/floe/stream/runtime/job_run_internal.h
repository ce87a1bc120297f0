#pragma once

// One attempt at running a job: builds every subtask from the graph (restoring the given
// checkpoint), runs them, and acts as the job's coordinator on the calling thread — it drives the
// split enumerators, triggers checkpoints, collects acknowledgements, writes completed checkpoints
// and sends the notifications. Run() returns when every subtask has ended, one has failed, or the
// job is cancelled; all threads are joined by then. Restarts are the caller's business.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "floe/stream/checkpoint_storage.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/job_graph.h"
#include "floe/stream/metrics.h"
#include "floe/stream/runtime/task_internal.h"

namespace floe::stream::runtime {

struct JobRunOptions {
  const JobGraph* graph = nullptr;
  const ExecutionConfig* config = nullptr;
  std::string job_name;
  CheckpointStorage* storage = nullptr;          // null: no checkpoints or savepoints
  const CompletedCheckpoint* restore = nullptr;  // null: a fresh start
  MetricGroup* metrics = nullptr;
  const std::atomic<bool>* cancel_requested = nullptr;
  // Once set, every source stops reading and the job ends as a bounded one: final checkpoint,
  // end of input, the sinks' last commit.
  const std::atomic<bool>* drain_requested = nullptr;
};

// The share of an operator's state that subtask `subtask` of `parallelism` restores: the old
// subtask's entries when the parallelism is unchanged, else every entry of every old subtask dealt
// out round-robin.
std::vector<std::string> StateShare(const OperatorState& state, int subtask, int parallelism);

class JobRun : private JobControl {
 public:
  explicit JobRun(JobRunOptions options);
  ~JobRun() override;

  Status Run();
  // Thread-safe: stop the job (Run then returns kCancelled).
  void Cancel();
  // Thread-safe: queue a savepoint into `folder`; the future holds its location once it is
  // complete, or why it was not taken. The future outlives the run.
  Result<std::future<Result<std::string>>> RequestSavepoint(std::string folder);

  int64_t checkpoints_completed() const { return checkpoints_completed_; }
  // The newest checkpoint (not savepoint) this run completed.
  const std::optional<CompletedCheckpoint>& last_completed() const { return last_completed_; }

 private:
  class EnumeratorContext;
  struct AckEvent {
    int node;
    int subtask;
    int64_t checkpoint_id;
    std::vector<std::string> state;
  };
  struct SplitRequestEvent {
    int node;
    int subtask;
  };
  struct ReachedEndEvent {
    int node;
    int subtask;
  };
  struct FinishedEvent {
    int node;
    int subtask;
  };
  struct FailedEvent {
    Error error;
  };
  using SavepointPromise = std::shared_ptr<std::promise<Result<std::string>>>;
  struct SavepointEvent {
    std::string folder;
    SavepointPromise promise;
  };
  struct CancelEvent {};
  using Event = std::variant<AckEvent, SplitRequestEvent, ReachedEndEvent, FinishedEvent,
                             FailedEvent, SavepointEvent, CancelEvent>;

  struct PendingCheckpoint {
    CompletedCheckpoint checkpoint;
    int acks_missing = 0;
    std::optional<std::string> savepoint_folder;
    SavepointPromise promise;
    bool final = false;  // triggered once every source subtask had reached its end
  };

  // JobControl, called from the subtasks' threads.
  void Acknowledge(int node, int subtask, int64_t checkpoint_id,
                   std::vector<std::string> state) override;
  void RequestSplit(int node, int subtask) override;
  void ReachedEnd(int node, int subtask) override;
  void Finished(int node, int subtask) override;
  void Failed(int node, int subtask, Error error) override;
  void Post(Event event);

  Status Build();
  Status StartEnumerators();
  Status Coordinate();
  void Stop();
  // An error ends the run: a subtask failed, an enumerator did, or the job was cancelled.
  Status Handle(Event& event);
  Status TriggerCheckpoint(std::optional<std::string> savepoint_folder, SavepointPromise promise);
  Status CompleteCheckpoint();
  void AbortCheckpoint(const std::string& why);
  // Split assignments pass through here: held back while the reader's valve is closed.
  void DeliverToReader(int node, int subtask, Mail mail);
  void OpenValve(int node, int subtask);
  void EndSourceInput(int node, int subtask);
  // Tells every source subtask to stop reading (a drain).
  void DrainSources();

  JobRunOptions options_;
  const JobGraph& graph_;
  const ExecutionConfig& config_;
  bool checkpointing_;

  std::vector<std::vector<std::unique_ptr<Task>>> tasks_;      // by node, subtask
  std::vector<std::unique_ptr<SplitEnumerator>> enumerators_;  // by node; null for operators
  std::vector<std::unique_ptr<EnumeratorContext>> enumerator_contexts_;
  // Per source node and reader: the mail held back while its valve is closed.
  std::vector<std::vector<std::optional<std::vector<Mail>>>> held_;
  int total_subtasks_ = 0;
  int finished_subtasks_ = 0;
  int source_subtasks_ = 0;
  // Source subtasks whose reader has ended; they end their input once a final checkpoint (one
  // taken after all of them reached their end) is complete, or at once without checkpoints.
  std::vector<std::pair<int, int>> sources_at_end_;
  bool final_checkpoint_done_ = false;
  bool final_checkpoint_tried_ = false;
  bool draining_ = false;  // the sources were told to drain

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Event> events_;
  bool stopped_ = false;  // guarded by mutex_: no more savepoint requests are taken

  std::optional<PendingCheckpoint> pending_;
  std::deque<SavepointEvent> savepoint_requests_;
  int64_t next_checkpoint_id_ = 1;
  int64_t checkpoints_completed_ = 0;
  std::optional<CompletedCheckpoint> last_completed_;
};

}  // namespace floe::stream::runtime
