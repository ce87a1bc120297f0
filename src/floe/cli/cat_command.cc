// `floe cat FILE`: a data file's rows as JSON lines, by file extension.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "floe/cli/cat_parquet.h"
#include "floe/cli/commands.h"

namespace floe::cli {

void AddCat(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("cat", "Print the rows of a data file as JSON lines");
  auto path = std::make_shared<std::string>();
  command->add_option("FILE", *path, "The data file (.parquet)")->required();
  command->callback([path, &exit_code] {
    Status status;
    if (path->ends_with(".parquet")) {
      status = CatParquet(*path, stdout);
    } else {
      status = InvalidArgument("{}: unknown file type (expected .parquet)", *path);
    }
    std::fflush(stdout);
    if (!status) {
      fmt::print(stderr, "floe cat: {}\n", status.error().ToString());
      exit_code = kExitBadInput;
    }
  });
}

}  // namespace floe::cli
