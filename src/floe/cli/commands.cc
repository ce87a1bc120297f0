#include "floe/cli/commands.h"

#include <CLI/CLI.hpp>

namespace floe::cli {

void AddCommands(CLI::App& app, int& exit_code) {
  (void)app;
  exit_code = kExitOk;
}

}  // namespace floe::cli
