#include "floe/cli/sql_interrupt.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>

namespace floe::cli {
namespace {

constexpr int kRefreshMs = 250;

volatile std::sig_atomic_t g_interrupted = 0;
// The handler writes a byte here so that the watcher wakes at once.
int g_wake_pipe[2] = {-1, -1};

extern "C" void OnInterrupt(int) {
  g_interrupted = 1;
  if (g_wake_pipe[1] >= 0) {
    char byte = 1;
    [[maybe_unused]] ssize_t written = write(g_wake_pipe[1], &byte, 1);
  }
}

void DrainWakePipe() {
  char bytes[64];
  while (read(g_wake_pipe[0], bytes, sizeof(bytes)) > 0) {
  }
}

}  // namespace

void InstallInterruptHandler() {
  if (g_wake_pipe[0] < 0 && pipe2(g_wake_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
    g_wake_pipe[0] = g_wake_pipe[1] = -1;
  }
  struct sigaction action = {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a read blocked at the prompt returns, so the line can be abandoned.
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
}

void RestoreDefaultInterrupt() { std::signal(SIGINT, SIG_DFL); }

bool TakeInterrupt() {
  bool interrupted = g_interrupted != 0;
  g_interrupted = 0;
  if (g_wake_pipe[0] >= 0) DrainWakePipe();
  return interrupted;
}

std::string ProgressLine(const sql::JobProgress& progress, double elapsed_seconds, bool writing) {
  auto count = [](int64_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  std::string line =
      fmt::format("{} {}, {} read", count(progress.rows, "row", "rows"),
                  writing ? "written" : "received", count(progress.files_read, "file", "files"));
  if (writing || progress.files_written > 0) {
    line += fmt::format(", {} written", count(progress.files_written, "file", "files"));
  }
  line += fmt::format(", {:.1f} s elapsed", elapsed_seconds);
  if (!writing) line += " (Ctrl-C to cancel)";
  return line;
}

ProgressLineDrawer::ProgressLineDrawer(Source source, bool writing)
    : source_(std::move(source)), writing_(writing), start_(std::chrono::steady_clock::now()) {}

void ProgressLineDrawer::Tick() {
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed < 1.0) return;
  std::optional<sql::JobProgress> progress = source_();
  if (!progress) return;
  fmt::print(stderr, "\r\033[K{}", ProgressLine(*progress, elapsed, writing_));
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLineDrawer::Erase() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

QueryWatch::QueryWatch(sql::RowStream& rows, bool progress) : rows_(rows) {
  if (progress) {
    drawer_.emplace([&rows] { return std::optional<sql::JobProgress>(rows.Progress()); },
                    /*writing=*/false);
  }
  TakeInterrupt();
  thread_ = std::thread([this] { Run(); });
}

QueryWatch::~QueryWatch() {
  stop_ = true;
  if (g_wake_pipe[1] >= 0) {
    char byte = 0;
    [[maybe_unused]] ssize_t written = write(g_wake_pipe[1], &byte, 1);
  }
  thread_.join();
  TakeInterrupt();
  if (drawer_) drawer_->Erase();
}

void QueryWatch::Run() {
  while (!stop_) {
    if (g_wake_pipe[0] >= 0) {
      pollfd fd{.fd = g_wake_pipe[0], .events = POLLIN, .revents = 0};
      poll(&fd, 1, kRefreshMs);
      DrainWakePipe();
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(kRefreshMs));
    }
    if (g_interrupted != 0 && !cancelled_) {
      g_interrupted = 0;
      cancelled_ = true;
      rows_.Cancel();
    }
    if (drawer_ && !stop_) drawer_->Tick();
  }
}

StatementProgress::StatementProgress(ProgressLineDrawer::Source source)
    : drawer_(std::move(source), /*writing=*/true) {
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (
        !changed_.wait_for(lock, std::chrono::milliseconds(kRefreshMs), [this] { return stop_; })) {
      drawer_.Tick();
    }
  });
}

StatementProgress::~StatementProgress() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
  drawer_.Erase();
}

}  // namespace floe::cli
