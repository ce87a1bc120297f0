#include "floe/cli/commands.h"

#include <CLI/CLI.hpp>

namespace floe::cli {

void AddCommands(CLI::App& app, int& exit_code) {
  exit_code = kExitOk;
  auto* inspect = app.add_subcommand("inspect", "Show the structure of a file");
  inspect->require_subcommand(1);
  AddInspectParquet(*inspect, exit_code);
  AddCat(app, exit_code);
}

}  // namespace floe::cli
