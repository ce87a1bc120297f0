#pragma once

// For the command-line tests: runs the real `floe` binary (FLOE_BINARY, set by CMake) with
// arguments through the shell and captures its exit code, stdout and stderr.

#include <string>

#include "floe/testing/testing.h"

namespace floe::cli::testing {

using floe::testing::CommandRun;

// The string as one single-quoted shell word.
inline std::string Quote(const std::string& s) { return floe::testing::ShellQuote(s); }

inline CommandRun Floe(const std::string& args) {
  return floe::testing::RunCommand(Quote(FLOE_BINARY) + " " + args);
}

}  // namespace floe::cli::testing
