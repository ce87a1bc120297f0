#pragma once

// For the command-line tests: runs the real `floe` binary (FLOE_BINARY, set by CMake) with
// arguments through the shell and captures its exit code, stdout and stderr; or starts it in the
// background, for tests that signal it.

#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "floe/testing/testing.h"
#include "floe/util/json.h"

extern char** environ;

namespace floe::cli::testing {

using floe::testing::CommandRun;

// The string as one single-quoted shell word.
inline std::string Quote(const std::string& s) { return floe::testing::ShellQuote(s); }

inline CommandRun Floe(const std::string& args) {
  return floe::testing::RunCommand(Quote(FLOE_BINARY) + " " + args);
}

// Starts `floe ARGS` in the background in folder `dir`, stdin from /dev/null, its output appended
// to dir/out.txt and dir/err.txt; returns its pid (the shell execs floe), or -1.
inline pid_t StartFloe(const std::filesystem::path& dir, const std::string& args) {
  const std::string command = "cd " + Quote(dir.string()) + " && exec " + Quote(FLOE_BINARY) + " " +
                              args + " </dev/null >> " + Quote((dir / "out.txt").string()) +
                              " 2>> " + Quote((dir / "err.txt").string());
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) {
    return -1;
  }
  return pid;
}

// Waits for a process StartFloe started: its exit code, or 128 + the signal that ended it.
inline int WaitFloe(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// "id:data" of each JSON line of out with both fields (floe sql's jsonl rows, ClickHouse's
// JSONEachRow); other lines ([INFO] notes, other results) are left out.
inline std::set<std::string> IdDataRows(const std::string& out) {
  std::set<std::string> rows;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with('{')) continue;
    auto row = Json::Parse(line);
    if (!row || row->Find("id") == nullptr || row->Find("data") == nullptr) continue;
    const Json& id = *row->Find("id");
    // ClickHouse prints Int64 quoted in JSONEachRow.
    rows.insert((id.is_string() ? id.as_string() : std::to_string(id.as_int())) + ":" +
                row->Find("data")->as_string());
  }
  return rows;
}

}  // namespace floe::cli::testing
