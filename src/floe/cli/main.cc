#include <CLI/CLI.hpp>

#include "floe/cli/commands.h"

#ifndef FLOE_VERSION
#define FLOE_VERSION "0.1.0"
#endif

int main(int argc, char** argv) {
  CLI::App app{"floe: a native engine for Apache Iceberg tables, batch and streaming", "floe"};
  app.set_version_flag("--version", "floe " FLOE_VERSION);
  app.require_subcommand(0, 1);
  int exit_code = floe::cli::kExitOk;
  floe::cli::AddCommands(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : floe::cli::kExitBadInput;
  }
  if (app.get_subcommands().empty()) {
    std::fputs(app.help().c_str(), stdout);
  }
  return exit_code;
}
