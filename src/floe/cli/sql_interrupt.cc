#include "floe/cli/sql_interrupt.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>

namespace floe::cli {
namespace {

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

QueryWatch::QueryWatch(sql::RowStream& rows, const std::atomic<int64_t>& received, bool progress)
    : rows_(rows),
      received_(received),
      progress_(progress),
      start_(std::chrono::steady_clock::now()) {
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
  if (drawn_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

void QueryWatch::Run() {
  using std::chrono::duration;
  constexpr int kRefreshMs = 250;
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
    double elapsed = duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (progress_ && !stop_ && elapsed >= 1.0) {
      fmt::print(stderr, "\r\033[K{} rows received, {:.1f} s elapsed (Ctrl-C to cancel)",
                 received_.load(), elapsed);
      std::fflush(stderr);
      drawn_ = true;
    }
  }
}

}  // namespace floe::cli
