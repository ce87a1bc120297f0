#pragma once

// `floe sql`: Flink's SQL client for floe. It opens a session (sql/session.h) whose embedded
// catalog lives in --warehouse (default ./warehouse), applies -d's YAML defaults, runs -i's file,
// then either -f's file or -e's statements (code 1 at the first failing statement, reported with
// its line and column), or reads statements interactively: line editing and history with libedit
// on a terminal (history in $FLOE_SQL_HISTORY, else ~/.floe_sql_history), plain lines when stdin
// is a pipe. Statements end with ';' and may span lines; HELP, QUIT and EXIT work with or without
// it. Before it exits, the session's jobs end and commit (cli/job_wait.h).

#include <cstdio>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace floe::cli {

struct SqlArgs {
  std::string warehouse = "warehouse";
  std::optional<std::string> defaults_file;  // cli/sql_defaults.h
  std::optional<std::string> init_file;
  std::optional<std::string> script_file;
  std::optional<std::string> statements;
};

// Runs the client with stdin as its input; returns the exit code.
int RunSql(const SqlArgs& args, std::FILE* out, std::FILE* err);

}  // namespace floe::cli
