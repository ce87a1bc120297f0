#include "floe/sql/statements/jobs.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "floe/sql/statements/insert_columns_internal.h"
#include "floe/util/clock.h"
#include "floe/util/uuid.h"

namespace floe::sql {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(50);

std::string NewJobId() {
  std::string id;
  for (char c : RandomUuid()) {
    if (c != '-') id.push_back(c);
  }
  return id;
}

}  // namespace

std::string_view JobStateName(JobState state) {
  switch (state) {
    case JobState::kRunning:
      return "RUNNING";
    case JobState::kFinished:
      return "FINISHED";
    case JobState::kFailed:
      return "FAILED";
    case JobState::kCanceled:
      return "CANCELED";
  }
  return "UNKNOWN";
}

struct JobManager::Job {
  std::unique_ptr<stream::StreamEnvironment> env;
  std::string savepoint_dir;
  JobInfo info;
  std::thread thread;
  std::mutex mutex;
  std::condition_variable ended;
  JobStatus status;  // guarded by mutex
  // Set by Stop: a job that ends after a stop with savepoint is FINISHED, as in Flink.
  bool stopped_with_savepoint = false;
};

JobManager::JobManager() = default;

JobManager::~JobManager() {
  CancelAll();
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;
  }
  for (const auto& job : jobs) {
    if (job->thread.joinable()) job->thread.join();
  }
}

std::string JobManager::Submit(std::string name, std::unique_ptr<stream::StreamEnvironment> env,
                               std::string savepoint_dir, JobInfo info) {
  auto job = std::make_shared<Job>();
  job->env = std::move(env);
  job->savepoint_dir = std::move(savepoint_dir);
  job->status.bounded = info.bounded;
  job->info = std::move(info);
  job->status.id = NewJobId();
  job->status.name = std::move(name);
  job->status.start_time_ms = NowMs();
  const std::string id = job->status.id;
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(job);
  }
  // The thread holds only a raw pointer: jobs_ keeps the Job alive until the destructor joins.
  Job* raw = job.get();
  job->thread = std::thread([raw] {
    Result<stream::JobResult> result = raw->env->Execute(raw->status.name);
    if (raw->info.on_end) raw->info.on_end();
    std::lock_guard lock(raw->mutex);
    raw->status.end_time_ms = NowMs();
    if (result.has_value()) {
      raw->status.state = JobState::kFinished;
      raw->status.result = std::move(*result);
    } else if (result.error().kind() == ErrorKind::kCancelled) {
      raw->status.state = raw->stopped_with_savepoint ? JobState::kFinished : JobState::kCanceled;
      raw->status.error = result.error().message();
      raw->status.error_kind = ErrorKind::kCancelled;
    } else {
      raw->status.state = JobState::kFailed;
      raw->status.error = result.error().message();
      raw->status.error_kind = result.error().kind();
    }
    raw->ended.notify_all();
  });
  return id;
}

std::vector<JobStatus> JobManager::List() const {
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;
  }
  std::vector<JobStatus> out;
  for (const auto& job : jobs) {
    std::lock_guard lock(job->mutex);
    out.push_back(job->status);
  }
  return out;
}

std::optional<JobProgress> JobManager::RunningProgress(int64_t since_ms) const {
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;
  }
  for (auto it = jobs.rbegin(); it != jobs.rend(); ++it) {
    Job& job = **it;
    {
      std::lock_guard lock(job.mutex);
      if (job.status.start_time_ms < since_ms) break;
      if (job.status.state != JobState::kRunning) continue;
    }
    const stream::MetricGroup& metrics = job.env->metrics();
    return JobProgress{.rows = metrics.Sum(kInsertedRowsMetric),
                       .files_read = metrics.Sum(stream::kFilesReadMetric),
                       .files_written = metrics.Sum(stream::kFilesWrittenMetric)};
  }
  return std::nullopt;
}

Result<std::shared_ptr<JobManager::Job>> JobManager::Find(std::string_view id) const {
  std::lock_guard lock(mutex_);
  for (const auto& job : jobs_) {
    if (job->status.id == id) return job;
  }
  return NotFound("job '{}' does not exist (SHOW JOBS lists the jobs of this session)", id);
}

Result<JobStatus> JobManager::Get(std::string_view id) const {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Job> job, Find(id));
  std::lock_guard lock(job->mutex);
  return job->status;
}

void JobManager::WaitFor(Job& job) {
  std::unique_lock lock(job.mutex);
  job.ended.wait(lock, [&] { return job.status.state != JobState::kRunning; });
}

Result<std::optional<std::string>> JobManager::Stop(std::string_view id, bool with_savepoint) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Job> job, Find(id));
  auto running = [&] {
    std::lock_guard lock(job->mutex);
    return job->status.state == JobState::kRunning;
  };
  if (!running()) {
    std::lock_guard lock(job->mutex);
    return InvalidArgument("job '{}' ({}) is not running: it is {}", job->status.id,
                           job->status.name, JobStateName(job->status.state));
  }
  std::optional<std::string> savepoint;
  if (with_savepoint) {
    if (job->savepoint_dir.empty()) {
      return InvalidArgument(
          "job '{}' cannot take a savepoint: set 'state.savepoints.dir' or "
          "'state.checkpoints.dir' before starting it",
          job->status.name);
    }
    // Right after Submit the runtime may not have started its run yet, which TriggerSavepoint
    // reports as no job running: ask again while the job still runs.
    // Flink's folder naming: savepoint-<first 6 digits of the job id>-<12 random hex digits>.
    const std::string folder =
        fmt::format("{}/savepoint-{}-{:012x}", job->savepoint_dir, job->status.id.substr(0, 6),
                    RandomU64() & 0xffffffffffffULL);
    while (true) {
      Result<std::string> taken = job->env->TriggerSavepoint(folder);
      if (taken.has_value()) {
        savepoint = std::move(*taken);
        break;
      }
      if (!running() || taken.error().message().find("no job is running") == std::string::npos) {
        Error error = std::move(taken).error();
        error.AddContext(fmt::format("savepoint of job '{}'", job->status.name));
        return std::unexpected(std::move(error));
      }
      std::this_thread::sleep_for(kPollInterval);
    }
    std::lock_guard lock(job->mutex);
    job->stopped_with_savepoint = true;
  }
  job->env->Cancel();
  WaitFor(*job);
  return savepoint;
}

Result<JobStatus> JobManager::Wait(std::string_view id) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Job> job, Find(id));
  WaitFor(*job);
  std::lock_guard lock(job->mutex);
  return job->status;
}

void JobManager::WaitAll() {
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;
  }
  for (const auto& job : jobs) WaitFor(*job);
}

void JobManager::WaitBounded() {
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;
  }
  for (const auto& job : jobs) {
    if (job->info.bounded) WaitFor(*job);
  }
}

void JobManager::DrainUnbounded() {
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;
  }
  for (const auto& job : jobs) {
    if (!job->info.bounded) job->env->Drain();
  }
  for (const auto& job : jobs) {
    if (!job->info.bounded) WaitFor(*job);
  }
}

std::string JobManager::Summary(const JobStatus& status) const {
  std::string line =
      fmt::format("Job {} ({}): {}", status.id, status.name, JobStateName(status.state));
  if (status.state != JobState::kFinished) {
    if (!status.error.empty()) line += ": " + status.error;
    return line;
  }
  auto found = Find(status.id);
  if (!found.has_value() || !(*found)->info.summary) return line;
  Result<std::string> summary = (*found)->info.summary();
  return summary.has_value() ? fmt::format("{}. {}", line, *summary)
                             : fmt::format("{} (its result: {})", line, summary.error().message());
}

void JobManager::CancelAll() {
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;
  }
  for (const auto& job : jobs) job->env->Cancel();
  for (const auto& job : jobs) WaitFor(*job);
}

std::string JobManager::UniqueName(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto taken = [&](const std::string& candidate) {
    for (const auto& job : jobs_) {
      if (job->status.name == candidate) return true;
    }
    return false;
  };
  if (!taken(name)) return name;
  for (int n = 2;; ++n) {
    std::string candidate = name + "-" + std::to_string(n);
    if (!taken(candidate)) return candidate;
  }
}

}  // namespace floe::sql
