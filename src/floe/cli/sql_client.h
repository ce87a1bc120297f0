#pragma once

// The statement runner behind `floe sql`: splits text into statements, runs each in the session,
// prints results (sql/result_printer.h, in the session's result mode) and errors as Flink's client
// does:
//   [ERROR] Could not execute SQL statement. Reason:
//   line 3, column 14: expected ')' after column list, found 'PARTITIONED'
// Positions are those of the script (or of the text typed at the prompt): a parse error's place,
// and for an error while running a statement, where that statement starts.

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "floe/sql/session.h"
#include "floe/sql/syntax/lexer.h"
#include "floe/util/error.h"

namespace floe::cli {

// The error's message with its position made relative to the script: a message that starts with
// "line L, column C: " (positions within the statement) is moved by where the statement starts;
// any other message gets the statement's start in front.
std::string ScriptErrorText(const Error& error, sql::Position statement_start);

class SqlClient {
 public:
  enum class Outcome { kDone, kFailed, kQuit };

  SqlClient(sql::Session& session, std::FILE* out, std::FILE* err)
      : session_(session), out_(out), err_(err) {}

  // Runs the statements of `script` in order and stops at the first error (printed) or QUIT.
  Outcome RunScript(std::string_view script);
  // Prints an error in the client's form.
  void PrintError(std::string_view text);
  // The jobs statements submitted and left running (streaming INSERTs), in order.
  const std::vector<std::string>& background_jobs() const { return background_jobs_; }

 private:
  Outcome RunStatement(std::string_view text, sql::Position start);
  Result<bool> Show(sql::StatementResult& result);  // false: QUIT
  Status ShowRows(sql::StatementResult& result);

  sql::Session& session_;
  std::FILE* out_;
  std::FILE* err_;
  std::vector<std::string> background_jobs_;
};

}  // namespace floe::cli
