#pragma once

// The background jobs of a session: streaming INSERTs keep running after their statement returns,
// until STOP JOB (optionally with a savepoint), the end of their sources, or a drain. SHOW JOBS
// lists them with their state. A bounded job (all its sources end by themselves) is one the
// session waits for: before a later statement that touches tables (WaitBounded), and at its end.
//
// Each job owns its StreamEnvironment and runs it on its own thread. A job that fails keeps its
// error (state FAILED) for SHOW JOBS; a stopped one is CANCELED. What can go wrong: an unknown job
// id (kNotFound naming it), stopping a job that is no longer running (kInvalidArgument with its
// state), a savepoint the runtime cannot take (no checkpoint folder, batch mode).

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/sql/statement_result.h"
#include "floe/stream/data_stream.h"
#include "floe/util/error.h"

namespace floe::sql {

enum class JobState : unsigned char { kRunning, kFinished, kFailed, kCanceled };

// "RUNNING", "FINISHED", "FAILED", "CANCELED", as Flink's SHOW JOBS prints them.
std::string_view JobStateName(JobState state);

struct JobStatus {
  std::string id;  // 32 lower-case hex digits, like a Flink job id
  std::string name;
  JobState state = JobState::kRunning;
  int64_t start_time_ms = 0;
  std::optional<int64_t> end_time_ms;
  std::string error;  // kFailed: why; kCanceled: the cancellation
  ErrorKind error_kind = ErrorKind::kInternal;
  std::optional<stream::JobResult> result;  // kFinished: the runtime's summary
  bool bounded = true;                      // every source of the job ends by itself
};

// What the session knows of a job besides its graph.
struct JobInfo {
  bool bounded = true;
  // Once the job has FINISHED: one line saying what it committed ("[INFO] Inserted 2 rows into
  // floe.default.t (snapshot 123)."). Called on the thread that asks (Summary).
  std::function<Result<std::string>()> summary;
  // Runs on the job's thread once it has ended, before anyone waiting hears of it: e.g. to drop
  // what the session's catalog caches of the table the job wrote, so that the next statement
  // reads the job's commits.
  std::function<void()> on_end;
};

class JobManager {
 public:
  JobManager();
  // Cancels every job still running and waits for it.
  ~JobManager();
  JobManager(const JobManager&) = delete;
  JobManager& operator=(const JobManager&) = delete;

  // Starts env.Execute(name) on a new thread and returns the job's id. STOP JOB ... WITH
  // SAVEPOINT writes into a new folder under `savepoint_dir` (absolute; empty: the job cannot
  // take one).
  std::string Submit(std::string name, std::unique_ptr<stream::StreamEnvironment> env,
                     std::string savepoint_dir = {}, JobInfo info = {});

  // The progress of the newest job still running that was submitted at or after `since_ms` (the
  // clock of JobStatus::start_time_ms); nullopt when there is none. Thread-safe.
  std::optional<JobProgress> RunningProgress(int64_t since_ms) const;

  // Every job submitted, in order of submission.
  std::vector<JobStatus> List() const;
  Result<JobStatus> Get(std::string_view id) const;

  // Stops a running job: with a savepoint, takes it first and returns its path; then cancels the
  // job and waits for its end.
  Result<std::optional<std::string>> Stop(std::string_view id, bool with_savepoint);
  // Waits until the job has ended and returns its final status.
  Result<JobStatus> Wait(std::string_view id);
  // Waits until every job has ended.
  void WaitAll();
  // Waits until every bounded job has ended.
  void WaitBounded();
  // The running unbounded jobs: their sources stop reading and each job ends with its final
  // commit (StreamEnvironment::Drain); waits for their ends.
  void DrainUnbounded();
  // The summary line of a FINISHED job (JobInfo::summary), else its state and error.
  std::string Summary(const JobStatus& status) const;
  // Cancels every running job and waits for each to end.
  void CancelAll();

  // `name` when no job of this manager has that name, else `name-2`, `name-3`...: the same
  // sequence of statements gives the same names in every run, which keeps checkpoint folders.
  std::string UniqueName(const std::string& name) const;

 private:
  struct Job;
  Result<std::shared_ptr<Job>> Find(std::string_view id) const;
  static void WaitFor(Job& job);

  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<Job>> jobs_;
};

}  // namespace floe::sql
