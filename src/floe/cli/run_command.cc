#include "floe/cli/run_command.h"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "floe/cli/commands.h"
#include "floe/cli/result_printer.h"
#include "floe/sql/session.h"
#include "floe/sql/statements/jobs.h"
#include "floe/sql/syntax/parser.h"

namespace floe::cli {
namespace {

Result<std::string> ReadScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open script '{}'", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return IOError("cannot read script '{}'", path);
  return text.str();
}

// Prints a result's rows as `floe sql` does, in the session's result mode (Flink's boxed
// tableau by default), until the rows end or are cancelled.
Status PrintRows(sql::Session& session, sql::StatementResult& result, std::FILE* out) {
  FLOE_ASSIGN_OR_RETURN(sql::ResultMode mode, session.config().result_mode());
  FLOE_ASSIGN_OR_RETURN(int max_width, session.config().max_column_width());
  ResultPrinter printer(out, result.schema, result.changelog,
                        {.mode = mode, .max_column_width = max_width});
  printer.Begin();
  while (true) {
    auto batch = result.rows->Next();
    if (!batch.has_value()) {
      if (batch.error().kind() != ErrorKind::kCancelled) return std::unexpected(batch.error());
      printer.End(true);
      return Ok();
    }
    if (!batch->has_value()) break;
    printer.Add(**batch);
    std::fflush(out);
  }
  printer.End(false);
  return Ok();
}

// Takes SIGINT and SIGTERM for the whole process (they are blocked in every thread, so only
// sigtimedwait here sees them) and stops the script's jobs when one comes.
class SignalWatcher {
 public:
  explicit SignalWatcher(sql::Session& session, std::FILE* err) : session_(session), err_(err) {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
    thread_ = std::thread([this] { Watch(); });
  }
  ~SignalWatcher() {
    done_ = true;
    thread_.join();
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  bool stopping() const { return stopping_; }
  // The rows being printed, to cancel on a signal (nullptr when none).
  void SetCurrent(sql::RowStream* rows) {
    std::lock_guard lock(mutex_);
    current_ = rows;
    if (rows != nullptr && stopping_) rows->Cancel();
  }

 private:
  void Watch() {
    const timespec poll{0, 100'000'000};
    while (!done_) {
      const int signal = sigtimedwait(&signals_, nullptr, &poll);
      if (signal <= 0) continue;
      fmt::print(err_, "floe run: {}: stopping the jobs\n",
                 signal == SIGINT ? "SIGINT" : "SIGTERM");
      std::fflush(err_);
      stopping_ = true;
      {
        std::lock_guard lock(mutex_);
        if (current_ != nullptr) current_->Cancel();
      }
      session_.jobs().CancelAll();
    }
  }

  sql::Session& session_;
  std::FILE* err_;
  sigset_t signals_;
  sigset_t previous_;
  std::atomic<bool> done_{false};
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  sql::RowStream* current_ = nullptr;
  std::thread thread_;
};

}  // namespace

int RunScript(const RunArgs& args, std::FILE* out, std::FILE* err) {
  auto text = ReadScript(args.file);
  if (!text) return ReportBadInput(err, "run", text.error());
  auto statements = sql::ParseScript(*text);
  if (!statements) {
    fmt::print(err, "floe run: {}: {}\n", args.file, statements.error().message());
    return kExitBadInput;
  }
  sql::Session session(
      {.embedded_warehouse = args.warehouse, .checkpoint_root = args.checkpoint_dir});
  if (Status opened = session.Open(); !opened) return ReportBadInput(err, "run", opened.error());

  int code = kExitOk;
  {
    SignalWatcher watcher(session, err);
    for (const sql::Statement& statement : *statements) {
      if (watcher.stopping()) break;
      auto result = session.Execute(statement);
      if (!result) {
        fmt::print(err, "floe run: {}:{}:{}: {}\n", args.file, statement.position.line,
                   statement.position.column, result.error().message());
        code = kExitFailure;
        break;
      }
      if (result->kind == sql::StatementResult::Kind::kQuit) break;
      if (result->kind == sql::StatementResult::Kind::kRows) {
        watcher.SetCurrent(result->rows.get());
        Status printed = PrintRows(session, *result, out);
        watcher.SetCurrent(nullptr);
        if (!printed && !watcher.stopping()) {
          fmt::print(err, "floe run: {}:{}:{}: {}\n", args.file, statement.position.line,
                     statement.position.column, printed.error().message());
          code = kExitFailure;
          break;
        }
      } else {
        fmt::print(out, "{}\n", result->message);
      }
      std::fflush(out);
    }
    // A script that failed stops the jobs it started; otherwise they run to their end or to a
    // signal.
    if (code != kExitOk || watcher.stopping()) session.jobs().CancelAll();
    session.jobs().WaitAll();
    if (watcher.stopping()) session.jobs().CancelAll();
  }
  for (const sql::JobStatus& job : session.jobs().List()) {
    fmt::print(out, "[INFO] Job {} ({}): {}\n", job.id, job.name, sql::JobStateName(job.state));
    if (job.state == sql::JobState::kFailed) {
      fmt::print(err, "floe run: job {} failed: {}\n", job.name, job.error);
      code = kExitFailure;
    }
  }
  std::fflush(out);
  return code;
}

void AddRunCommand(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a SQL script as a pipeline: its streaming INSERTs run until stopped (SIGINT, "
      "SIGTERM) and resume from their checkpoints when run again");
  auto args = std::make_shared<RunArgs>();
  cmd->add_option("FILE", args->file, "the SQL script")->required();
  cmd->add_option("--warehouse", args->warehouse,
                  "folder of the embedded catalog 'floe' (default ./warehouse)");
  cmd->add_option("--checkpoint-dir", args->checkpoint_dir,
                  "checkpoints of the script's jobs, one folder per job (default ./checkpoints)");
  cmd->callback([args, &exit_code] { exit_code = RunScript(*args, stdout, stderr); });
}

}  // namespace floe::cli
