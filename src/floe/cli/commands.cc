#include "floe/cli/commands.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "floe/cli/append_command.h"
#include "floe/cli/cat_command.h"
#include "floe/cli/inspect_manifest.h"
#include "floe/cli/run_command.h"
#include "floe/cli/scan_command.h"
#include "floe/cli/serve_command.h"

namespace floe::cli {

void AddInspectFileCommand(CLI::App& inspect, const std::string& name,
                           const std::string& description, const std::string& file_help,
                           std::function<Status(const std::string&)> print, int& exit_code) {
  auto* command = inspect.add_subcommand(name, description);
  auto path = std::make_shared<std::string>();
  command->add_option("FILE", *path, file_help)->required();
  command->callback([name, path, print = std::move(print), &exit_code] {
    std::fflush(stdout);
    Status status = print(*path);
    if (!status) {
      std::fflush(stdout);
      // Every error names the file already.
      fmt::print(stderr, "floe inspect {}: {}\n", name, status.error().ToString());
      exit_code = kExitBadInput;
    }
  });
}

int ReportBadInput(std::FILE* err, std::string_view command, const Error& error) {
  std::string message = error.message();
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  fmt::print(err, "floe {}: {}\n", command, message);
  return kExitBadInput;
}

void AddCommands(CLI::App& app, int& exit_code) {
  exit_code = kExitOk;
  AddCatCommand(app, exit_code);
  auto* inspect =
      app.add_subcommand("inspect", "Show what is inside Iceberg metadata and data files");
  inspect->require_subcommand(1);
  AddInspectMetadata(*inspect, exit_code);
  AddInspectManifest(*inspect, exit_code);
  AddInspectParquet(*inspect, exit_code);
  AddInspectOrc(*inspect, exit_code);
  AddConvertCommand(app, exit_code);
  // Tables: scan and inspect.
  AddScanCommand(app, exit_code);
  AddInspectTable(*inspect, exit_code);
  AddAppendCommand(app, exit_code);
  // SQL: the Flink-style client, and scripts run as pipelines.
  AddSqlCommand(app, exit_code);
  AddRunCommand(app, exit_code);
  // Catalogs: serve one over the REST protocol.
  AddServeCommand(app, exit_code);
}

}  // namespace floe::cli
