#include "floe/cli/job_wait.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

#include "floe/cli/commands.h"
#include "floe/sql/statements/jobs.h"
#include "floe/sql/session.h"

namespace floe::cli {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void OnStopSignal(int signal) { g_stop_signal = signal; }

// SIGINT and SIGTERM set a flag for the waiting loop rather than end the process: any thread
// may take them, and the handler only records which came.
void InstallStopHandlers() {
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool Running(const sql::JobStatus& job, bool bounded) {
  return job.state == sql::JobState::kRunning && job.bounded == bounded;
}

std::vector<sql::JobStatus> RunningJobs(sql::Session& session, bool bounded) {
  std::vector<sql::JobStatus> running;
  for (sql::JobStatus& job : session.jobs().List()) {
    if (Running(job, bounded)) running.push_back(std::move(job));
  }
  return running;
}

// Waits while jobs of the kind run; true when a signal came first.
bool WaitWhileRunning(sql::Session& session, bool bounded) {
  while (!RunningJobs(session, bounded).empty()) {
    if (g_stop_signal != 0) return true;
    std::this_thread::sleep_for(kPollInterval);
  }
  return g_stop_signal != 0;
}

std::string_view SignalName(int signal) { return signal == SIGINT ? "SIGINT" : "SIGTERM"; }

}  // namespace

int FinishJobs(sql::Session& session, const std::vector<std::string>& reported, std::FILE* out,
               std::FILE* err) {
  sql::JobManager& jobs = session.jobs();
  g_stop_signal = 0;
  InstallStopHandlers();
  bool signalled = WaitWhileRunning(session, /*bounded=*/true);
  if (!signalled) {
    std::vector<sql::JobStatus> unbounded = RunningJobs(session, /*bounded=*/false);
    if (!unbounded.empty()) {
      std::string names;
      for (const sql::JobStatus& job : unbounded) {
        names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", job.id, job.name);
      }
      fmt::print(out,
                 "[INFO] {} streaming {} still running: {}. {} until stopped: Ctrl-C (SIGINT) or "
                 "SIGTERM ends {} with a final commit.\n",
                 unbounded.size(), unbounded.size() == 1 ? "job is" : "jobs are", names,
                 unbounded.size() == 1 ? "It runs" : "They run",
                 unbounded.size() == 1 ? "it" : "them");
      std::fflush(out);
      signalled = WaitWhileRunning(session, /*bounded=*/false);
    }
  }
  // Bounded jobs a signal cuts short commit nothing: they are cancelled and reported.
  std::vector<std::string> cut_short;
  if (signalled) {
    fmt::print(out, "[INFO] {}: stopping the streaming jobs with a final commit.\n",
               SignalName(g_stop_signal));
    std::fflush(out);
    jobs.DrainUnbounded();
    for (const sql::JobStatus& job : RunningJobs(session, /*bounded=*/true)) {
      cut_short.push_back(job.id);
    }
    jobs.CancelAll();
  }
  jobs.WaitAll();

  int code = kExitOk;
  for (const sql::JobStatus& job : jobs.List()) {
    if (std::ranges::find(reported, job.id) != reported.end()) {
      fmt::print(out, "[INFO] {}\n", jobs.Summary(job));
    }
    const bool failed = job.state == sql::JobState::kFailed;
    if (!failed && std::ranges::find(cut_short, job.id) == cut_short.end()) continue;
    fmt::print(err, "[ERROR] Job {} ({}) {}: {}\n", job.id, job.name,
               failed ? "failed" : "was cancelled before its end", job.error);
    code = kExitFailure;
  }
  std::fflush(out);
  std::fflush(err);
  return code;
}

}  // namespace floe::cli
