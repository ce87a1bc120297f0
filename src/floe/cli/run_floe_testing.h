#pragma once

// For the command-line tests: runs the real `floe` binary (FLOE_BINARY, set by CMake) with
// arguments through the shell and captures its exit code, stdout and stderr.

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "floe/testing/testing.h"

namespace floe::cli::testing {

struct CommandRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// The string as one single-quoted shell word.
inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline CommandRun Floe(const std::string& args) {
  floe::testing::TempDir dir;
  const std::string err_path = (dir.path() / "stderr").string();
  const std::string command = Quote(FLOE_BINARY) + " " + args + " 2>" + Quote(err_path);
  CommandRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) run.out.append(buffer, n);
  int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = floe::testing::ReadFileOrDie(err_path);
  return run;
}

}  // namespace floe::cli::testing
