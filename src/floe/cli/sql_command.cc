#include "floe/cli/sql_command.h"

#include <editline/readline.h>
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/cli/job_wait.h"
#include "floe/cli/sql_client.h"
#include "floe/cli/sql_defaults.h"
#include "floe/cli/sql_interrupt.h"
#include "floe/sql/syntax/parser.h"

namespace floe::cli {
namespace {

constexpr const char* kPrompt = "floe> ";
constexpr const char* kContinuationPrompt = "    > ";
constexpr int kHistoryLines = 1000;

Result<std::string> ReadScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open SQL file '{}'", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return IOError("cannot read SQL file '{}'", path);
  return text.str();
}

std::string HistoryPath() {
  if (const char* path = std::getenv("FLOE_SQL_HISTORY"); path != nullptr && *path != '\0') {
    return path;
  }
  const char* home = std::getenv("HOME");
  return home == nullptr ? std::string() : std::string(home) + "/.floe_sql_history";
}

// One line of input: from libedit on a terminal, else from stdin as it is.
class LineReader {
 public:
  explicit LineReader(bool terminal) : terminal_(terminal) {
    if (!terminal_) return;
    history_ = HistoryPath();
    using_history();
    stifle_history(kHistoryLines);
    if (!history_.empty()) read_history(history_.c_str());
  }

  // nullopt at the end of input; an interrupted read sets `interrupted`.
  std::optional<std::string> Read(bool continuation, bool& interrupted) {
    interrupted = false;
    if (terminal_) {
      char* line = readline(continuation ? kContinuationPrompt : kPrompt);
      if (line == nullptr) {
        interrupted = TakeInterrupt();
        return interrupted ? std::optional<std::string>("") : std::nullopt;
      }
      std::string text(line);
      std::free(line);
      if (text.find_first_not_of(" \t") != std::string::npos) {
        add_history(text.c_str());
        if (!history_.empty()) write_history(history_.c_str());
      }
      return text;
    }
    std::string text;
    char chunk[4096];
    while (true) {
      errno = 0;
      if (std::fgets(chunk, sizeof(chunk), stdin) == nullptr) {
        if (errno == EINTR && TakeInterrupt()) {
          std::clearerr(stdin);
          interrupted = true;
          return std::string();
        }
        if (text.empty()) return std::nullopt;
        return text;
      }
      text += chunk;
      if (text.ends_with('\n')) {
        text.pop_back();
        return text;
      }
    }
  }

 private:
  bool terminal_;
  std::string history_;
};

bool IsBareCommand(std::string_view line) {
  auto begin = line.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return false;
  auto end = line.find_last_not_of(" \t\r");
  std::string word(line.substr(begin, end - begin + 1));
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return word == "HELP" || word == "QUIT" || word == "EXIT";
}

bool IsUnterminated(const Error& error) {
  return error.message().find(": unterminated ") != std::string::npos;
}

int RunInteractive(SqlClient& client, std::FILE* out) {
  bool terminal = isatty(fileno(stdin)) != 0;
  LineReader reader(terminal);
  if (terminal) {
    fmt::print(out, "floe sql: statements end with ';'. HELP; lists them, QUIT; leaves.\n");
  }
  std::string buffer;
  while (true) {
    bool interrupted = false;
    std::optional<std::string> line = reader.Read(!buffer.empty(), interrupted);
    if (interrupted) {
      // Ctrl-C at the prompt abandons what was typed.
      if (terminal) std::fputc('\n', out);
      buffer.clear();
      continue;
    }
    if (!line.has_value()) {
      if (terminal) std::fputc('\n', out);  // Ctrl-D: leave the shell's prompt on a line of its own
      if (buffer.find_first_not_of(" \t\r\n") != std::string::npos) client.RunScript(buffer);
      break;
    }
    if (buffer.empty() && IsBareCommand(*line)) *line += ';';
    buffer += *line;
    buffer += '\n';
    auto split = sql::SplitStatements(buffer);
    if (!split.has_value()) {
      if (IsUnterminated(split.error())) continue;  // a string or comment goes on
      client.PrintError(split.error().message());
      buffer.clear();
      continue;
    }
    if (!split->complete) continue;
    SqlClient::Outcome outcome =
        split->pieces.empty() ? SqlClient::Outcome::kDone : client.RunScript(buffer);
    buffer.clear();
    if (outcome == SqlClient::Outcome::kQuit) break;
  }
  return kExitOk;
}

}  // namespace

int RunSql(const SqlArgs& args, std::FILE* out, std::FILE* err) {
  std::optional<std::string> init;
  std::optional<std::string> script;
  std::vector<sql::Statement> defaults;
  if (args.defaults_file) {
    auto read = ReadSqlDefaults(*args.defaults_file);
    if (!read.has_value()) return ReportBadInput(err, "sql", read.error());
    defaults = std::move(*read);
  }
  if (args.init_file) {
    auto text = ReadScript(*args.init_file);
    if (!text.has_value()) return ReportBadInput(err, "sql", text.error());
    init = std::move(*text);
  }
  if (args.script_file) {
    auto text = ReadScript(*args.script_file);
    if (!text.has_value()) return ReportBadInput(err, "sql", text.error());
    script = std::move(*text);
  } else if (args.statements) {
    script = *args.statements;
  }

  sql::SessionOptions options;
  options.embedded_warehouse = args.warehouse;
  options.checkpoint_root = (std::filesystem::path(args.warehouse) / "checkpoints").string();
  sql::Session session(options);
  SqlClient client(session, out, err);
  if (Status opened = session.Open(); !opened) {
    client.PrintError(opened.error().message());
    return kExitFailure;
  }
  for (const std::string& note : session.notes()) fmt::print(out, "{}\n", note);
  for (const sql::Statement& statement : defaults) {
    if (auto result = session.Execute(statement); !result) {
      client.PrintError(fmt::format("{}: line {}: {}", *args.defaults_file, statement.position.line,
                                    result.error().message()));
      return kExitFailure;
    }
  }
  InstallInterruptHandler();
  int code = kExitOk;
  if (init && client.RunScript(*init) == SqlClient::Outcome::kFailed) {
    code = kExitFailure;
  } else if (script) {
    code = client.RunScript(*script) == SqlClient::Outcome::kFailed ? kExitFailure : kExitOk;
  } else {
    code = RunInteractive(client, out);
  }
  // The session's jobs run in this process: they end, and commit, before it does.
  const int jobs = FinishJobs(session, client.background_jobs(), out, err);
  return code != kExitOk ? code : jobs;
}

void AddSqlCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SqlArgs>();
  auto* command = app.add_subcommand(
      "sql", "Flink's SQL client for Iceberg tables: interactive, or a script with -f or -e");
  command->add_option("--warehouse", args->warehouse,
                      "Folder of the embedded catalog 'floe' (SQLite); default ./warehouse");
  command->add_option("-d,--defaults", args->defaults_file,
                      "YAML file of catalogs and configuration (Flink's sql-client-defaults.yaml), "
                      "read before -i");
  command->add_option("-i,--init", args->init_file, "SQL file to run before anything else");
  auto* file = command->add_option("-f,--file", args->script_file,
                                   "SQL file to run; exits at the end or at the first error");
  auto* execute = command->add_option("-e,--execute", args->statements,
                                      "Statements to run (';'-separated), then exit");
  file->excludes(execute);
  command->callback([args, &exit_code] { exit_code = RunSql(*args, stdout, stderr); });
}

}  // namespace floe::cli
