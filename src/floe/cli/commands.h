#pragma once

// The floe command line: each command adds itself to the application here.

namespace CLI {
class App;
}

namespace floe::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;    // the command ran and failed (e.g. a query error)
inline constexpr int kExitBadInput = 2;   // the input could not be read or understood

// Registers every command on the application and returns the exit code of the one that ran.
void AddCommands(CLI::App& app, int& exit_code);

// `inspect parquet FILE`, registered on the `inspect` command.
void AddInspectParquet(CLI::App& inspect, int& exit_code);

// `cat FILE`: rows of a data file as JSON lines.
void AddCat(CLI::App& app, int& exit_code);

}  // namespace floe::cli
