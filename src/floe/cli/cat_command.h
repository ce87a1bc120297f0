#pragma once

// `floe cat FILE.avro [--schema]`: prints an Avro file's records as JSON lines, or its writer
// schema.

namespace CLI {
class App;
}

namespace floe::cli {

void AddCatCommand(CLI::App& app, int& exit_code);

}  // namespace floe::cli
