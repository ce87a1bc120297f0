#include "floe/cli/commands.h"

#include <CLI/CLI.hpp>

#include "floe/cli/cat_command.h"

namespace floe::cli {

void AddCommands(CLI::App& app, int& exit_code) {
  exit_code = kExitOk;
  AddCatCommand(app, exit_code);
}

}  // namespace floe::cli
