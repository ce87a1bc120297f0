#pragma once

// Ctrl-C in `floe sql`: at the prompt it abandons the line being typed; while a query's rows are
// being read it cancels the query's RowStream, and the client returns to the prompt. A watcher
// thread turns the signal into the Cancel call (a signal handler may only set a flag) and, for
// long bounded queries on a terminal, keeps a one-line progress display (rows received, files
// read, time elapsed) on stderr, erased when the query ends. During other statements Ctrl-C ends
// the process as usual, since they cannot be stopped half-way; a batch INSERT shows the same line
// (rows and files written) through a StatementProgress.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "floe/sql/statement_result.h"

namespace floe::cli {

// Installs the SIGINT handler of the client (once; later calls do nothing).
void InstallInterruptHandler();
// SIGINT back to its default: the next Ctrl-C ends the process.
void RestoreDefaultInterrupt();
// True when Ctrl-C was pressed since the last call; clears the flag.
bool TakeInterrupt();

// The progress line's text: for a query "1200 rows received, 3 files read, 2.5 s elapsed
// (Ctrl-C to cancel)", for a write "1200 rows written, 3 files read, 1 file written, 2.5 s
// elapsed". A query shows files written only when it writes some.
std::string ProgressLine(const sql::JobProgress& progress, double elapsed_seconds, bool writing);

// Draws the progress line on stderr (after the first second, at most four times a second) while
// it lives, from `source` (nullopt: nothing to show yet); erases it at the end.
class ProgressLineDrawer {
 public:
  using Source = std::function<std::optional<sql::JobProgress>()>;
  ProgressLineDrawer(Source source, bool writing);
  // Called by the watcher thread: redraws when the first second has passed.
  void Tick();
  void Erase();

 private:
  Source source_;
  bool writing_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

// Watches one query while its rows are read: Ctrl-C calls rows.Cancel(). With `progress`, the
// progress line (rows.Progress()) is drawn on stderr.
class QueryWatch {
 public:
  QueryWatch(sql::RowStream& rows, bool progress);
  ~QueryWatch();
  QueryWatch(const QueryWatch&) = delete;
  QueryWatch& operator=(const QueryWatch&) = delete;

  // True when the user cancelled the query.
  bool cancelled() const { return cancelled_.load(); }

 private:
  void Run();

  sql::RowStream& rows_;
  std::optional<ProgressLineDrawer> drawer_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> cancelled_{false};
  std::thread thread_;
};

// The progress line of a statement that runs a job to its end (a batch INSERT), drawn while the
// object lives; Ctrl-C keeps its default meaning.
class StatementProgress {
 public:
  explicit StatementProgress(ProgressLineDrawer::Source source);
  ~StatementProgress();
  StatementProgress(const StatementProgress&) = delete;
  StatementProgress& operator=(const StatementProgress&) = delete;

 private:
  ProgressLineDrawer drawer_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_ = false;  // guarded by mutex_
  std::thread thread_;
};

}  // namespace floe::cli
