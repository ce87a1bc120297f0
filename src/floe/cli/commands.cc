#include "floe/cli/commands.h"

#include <CLI/CLI.hpp>

namespace floe::cli {

void AddCommands(CLI::App& app, int& exit_code) {
  exit_code = kExitOk;
  auto* inspect =
      app.add_subcommand("inspect", "Show what is inside Iceberg metadata and data files");
  inspect->require_subcommand(1);
  AddInspectMetadata(*inspect, exit_code);
  AddInspectParquet(*inspect, exit_code);
}

}  // namespace floe::cli
