#pragma once

// The floe command line: each command adds itself to the application here.

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "floe/util/error.h"

namespace CLI {
class App;
}

namespace floe::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the command ran and failed (e.g. a query error)
inline constexpr int kExitBadInput = 2;  // the input could not be read or understood

// Prints "floe <command>: <message>" on one line to err and returns kExitBadInput.
int ReportBadInput(std::FILE* err, std::string_view command, const Error& error);

// Registers every command on the application and returns the exit code of the one that ran.
void AddCommands(CLI::App& app, int& exit_code);

// `inspect metadata PATH [--json]`, registered on the `inspect` command (inspect_metadata.cc).
void AddInspectMetadata(CLI::App& inspect, int& exit_code);

// Registers `inspect NAME FILE` on the `inspect` command: print(FILE) writes to stdout, and its
// error (which names the file) goes to stderr as "floe inspect NAME: ..." with kExitBadInput.
void AddInspectFileCommand(CLI::App& inspect, const std::string& name,
                           const std::string& description, const std::string& file_help,
                           std::function<Status(const std::string&)> print, int& exit_code);

// `inspect parquet FILE` and `inspect orc FILE`, registered on the `inspect` command.
void AddInspectParquet(CLI::App& inspect, int& exit_code);
void AddInspectOrc(CLI::App& inspect, int& exit_code);

// `convert IN OUT`: CSV or JSON lines into Parquet.
void AddConvertCommand(CLI::App& app, int& exit_code);

// `sql [--warehouse DIR] [-i FILE] [-f FILE | -e STATEMENTS]`: the SQL client (sql_command.h).
void AddSqlCommand(CLI::App& app, int& exit_code);

}  // namespace floe::cli
