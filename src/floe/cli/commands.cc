#include "floe/cli/commands.h"

#include <CLI/CLI.hpp>

#include "floe/cli/cat_command.h"
#include "floe/cli/inspect_manifest.h"

namespace floe::cli {

void AddCommands(CLI::App& app, int& exit_code) {
  exit_code = kExitOk;
  AddCatCommand(app, exit_code);
  CLI::App* inspect =
      app.add_subcommand("inspect", "Print Iceberg metadata files in readable form");
  inspect->require_subcommand(1);
  AddInspectManifest(*inspect, exit_code);
}

}  // namespace floe::cli
