#include "floe/cli/sql_client.h"

#include <fmt/format.h>
#include <unistd.h>

#include <charconv>

#include "floe/cli/result_printer.h"
#include "floe/cli/sql_interrupt.h"
#include "floe/sql/statements/jobs.h"
#include "floe/sql/syntax/parser.h"
#include "floe/util/clock.h"

namespace floe::cli {
namespace {

// Reads the leading integer of `text` and moves past it; nullopt when there is none.
std::optional<int> TakeInt(std::string_view& text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return value;
}

bool TakePrefix(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

}  // namespace

std::string ScriptErrorText(const Error& error, sql::Position statement_start) {
  std::string_view rest = error.message();
  if (TakePrefix(rest, "line ")) {
    std::optional<int> line = TakeInt(rest);
    std::optional<int> column;
    if (line && TakePrefix(rest, ", column ")) column = TakeInt(rest);
    if (column && TakePrefix(rest, ": ")) {
      sql::Position at{.line = statement_start.line + *line - 1,
                       .column = *line == 1 ? statement_start.column + *column - 1 : *column};
      return sql::AtPosition(at, rest);
    }
  }
  return sql::AtPosition(statement_start, error.message());
}

void SqlClient::PrintError(std::string_view text) {
  std::fflush(out_);
  fmt::print(err_, "[ERROR] Could not execute SQL statement. Reason:\n{}\n", text);
  std::fflush(err_);
}

SqlClient::Outcome SqlClient::RunScript(std::string_view script) {
  auto split = sql::SplitStatements(script);
  if (!split.has_value()) {
    PrintError(split.error().message());
    return Outcome::kFailed;
  }
  for (const sql::ScriptPiece& piece : split->pieces) {
    Outcome outcome = RunStatement(piece.text, piece.position);
    if (outcome != Outcome::kDone) return outcome;
  }
  return Outcome::kDone;
}

SqlClient::Outcome SqlClient::RunStatement(std::string_view text, sql::Position start) {
  auto statement = sql::ParseStatement(text);
  if (!statement.has_value()) {
    PrintError(ScriptErrorText(statement.error(), start));
    return Outcome::kFailed;
  }
  // Statements other than queries cannot be stopped half-way: Ctrl-C ends the process then.
  RestoreDefaultInterrupt();
  Result<sql::StatementResult> result = [&] {
    if (isatty(fileno(stderr)) == 0) return session_.Execute(*statement);
    // A statement that runs a job to its end (a batch INSERT) shows that job's progress.
    const int64_t since = NowMs();
    StatementProgress progress([this, since] { return session_.jobs().RunningProgress(since); });
    return session_.Execute(*statement);
  }();
  InstallInterruptHandler();
  Result<bool> shown =
      result.has_value() ? Show(*result) : Result<bool>(std::unexpected(result.error()));
  if (!shown.has_value()) {
    PrintError(ScriptErrorText(shown.error(), start));
    return Outcome::kFailed;
  }
  return *shown ? Outcome::kDone : Outcome::kQuit;
}

Result<bool> SqlClient::Show(sql::StatementResult& result) {
  using Kind = sql::StatementResult::Kind;
  switch (result.kind) {
    case Kind::kMessage:
    case Kind::kQuit:
      if (!result.message.empty()) {
        std::fputs(result.message.c_str(), out_);
        if (!result.message.ends_with('\n')) std::fputc('\n', out_);
      }
      break;
    case Kind::kJob:
      if (!result.message.empty()) fmt::print(out_, "{}\n", result.message);
      fmt::print(out_, "Job ID: {}\n", result.job_id);
      background_jobs_.push_back(result.job_id);
      break;
    case Kind::kRows:
      FLOE_RETURN_IF_ERROR(ShowRows(result));
      break;
  }
  std::fflush(out_);
  return result.kind != Kind::kQuit;
}

Status SqlClient::ShowRows(sql::StatementResult& result) {
  if (result.schema == nullptr || result.rows == nullptr) {
    return InternalError("the statement gave rows without a schema or a row stream");
  }
  FLOE_ASSIGN_OR_RETURN(sql::ResultMode mode, session_.config().result_mode());
  FLOE_ASSIGN_OR_RETURN(int max_width, session_.config().max_column_width());
  ResultPrinter printer(out_, result.schema, result.changelog,
                        {.mode = mode, .max_column_width = max_width});
  // Only a bounded tableau shows nothing until its end, which is when progress helps.
  bool progress =
      mode == sql::ResultMode::kTableau && !result.changelog && isatty(fileno(stderr)) != 0;
  bool cancelled = false;
  printer.Begin();
  {
    QueryWatch watch(*result.rows, progress);
    while (true) {
      auto batch = result.rows->Next();
      if (!batch.has_value()) {
        if (watch.cancelled() || batch.error().kind() == ErrorKind::kCancelled) {
          cancelled = true;
          break;
        }
        return std::unexpected(batch.error());
      }
      if (!batch->has_value()) {
        cancelled = watch.cancelled();
        break;
      }
      printer.Add(**batch);
    }
  }
  printer.End(cancelled);
  return {};
}

}  // namespace floe::cli
