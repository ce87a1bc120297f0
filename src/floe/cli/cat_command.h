#pragma once

// `floe cat FILE [--schema]`: prints the rows of an Avro or Parquet file as JSON lines, or an Avro
// file's writer schema.

#include <cstdio>
#include <string>

namespace CLI {
class App;
}

namespace floe::cli {

void AddCatCommand(CLI::App& app, int& exit_code);

// What the command does: writes the records (or the Avro schema) of a file to out and returns the
// exit code; on failure writes one line naming the file and the problem to err (kExitBadInput).
int RunCat(const std::string& path, bool schema_only, std::FILE* out, std::FILE* err);

}  // namespace floe::cli
