#pragma once

// Ctrl-C in `floe sql`: at the prompt it abandons the line being typed; while a query's rows are
// being read it cancels the query's RowStream, and the client returns to the prompt. A watcher
// thread turns the signal into the Cancel call (a signal handler may only set a flag) and, for
// long bounded queries on a terminal, keeps a one-line progress display (rows received, time
// elapsed) on stderr, erased when the query ends. During other statements Ctrl-C ends the
// process as usual, since they cannot be stopped half-way.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "floe/sql/statement_result.h"

namespace floe::cli {

// Installs the SIGINT handler of the client (once; later calls do nothing).
void InstallInterruptHandler();
// SIGINT back to its default: the next Ctrl-C ends the process.
void RestoreDefaultInterrupt();
// True when Ctrl-C was pressed since the last call; clears the flag.
bool TakeInterrupt();

// Watches one query while its rows are read: Ctrl-C calls rows.Cancel(). With `progress`, a
// status line is drawn on stderr after the first second and at most four times a second.
class QueryWatch {
 public:
  QueryWatch(sql::RowStream& rows, const std::atomic<int64_t>& received, bool progress);
  ~QueryWatch();
  QueryWatch(const QueryWatch&) = delete;
  QueryWatch& operator=(const QueryWatch&) = delete;

  // True when the user cancelled the query.
  bool cancelled() const { return cancelled_.load(); }

 private:
  void Run();

  sql::RowStream& rows_;
  const std::atomic<int64_t>& received_;
  bool progress_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> cancelled_{false};
  std::thread thread_;
};

}  // namespace floe::cli
