#include "floe/cli/commands.h"

#include <CLI/CLI.hpp>

#include "floe/cli/cat_command.h"
#include "floe/cli/inspect_manifest.h"
#include "floe/cli/scan_command.h"

namespace floe::cli {

void AddCommands(CLI::App& app, int& exit_code) {
  exit_code = kExitOk;
  AddCatCommand(app, exit_code);
  auto* inspect =
      app.add_subcommand("inspect", "Show what is inside Iceberg metadata and data files");
  inspect->require_subcommand(1);
  AddInspectMetadata(*inspect, exit_code);
  AddInspectManifest(*inspect, exit_code);
  AddInspectParquet(*inspect, exit_code);
  AddConvertCommand(app, exit_code);
  // Tables: scan and inspect.
  AddScanCommand(app, exit_code);
  AddInspectTable(*inspect, exit_code);
}

}  // namespace floe::cli
