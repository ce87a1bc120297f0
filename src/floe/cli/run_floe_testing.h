#pragma once

// For the command-line tests: runs the real `floe` binary (FLOE_BINARY, set by CMake) with
// arguments through the shell and captures its exit code, stdout and stderr; or starts it in the
// background, for tests that signal it.

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

// The bytes of a file, or empty when it cannot be read (a log its process has not written yet).
inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `floe serve --port 0 ARGS` started in dir; uri() is empty when it did not say where it listens
// within 10 s. Stopped with SIGTERM at the latest when this ends.
class Served {
 public:
  Served(const std::filesystem::path& dir, const std::string& args) : dir_(dir) {
    pid_ = StartFloe(dir, "serve --port 0 " + args);
    constexpr std::string_view kAt = " at ";
    for (int i = 0; i < 1000 && pid_ > 0; ++i) {
      std::string out = ReadText(dir / "out.txt");
      if (size_t at = out.find(kAt); at != std::string::npos && out.ends_with("\n")) {
        uri_ = out.substr(at + kAt.size(), out.find('\n', at) - at - kAt.size());
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ~Served() {
    if (pid_ > 0 && exit_code_ < 0) Stop();
  }
  Served(const Served&) = delete;
  Served& operator=(const Served&) = delete;

  const std::string& uri() const { return uri_; }
  std::string err() const { return ReadText(dir_ / "err.txt"); }
  // Its exit code.
  int Stop() {
    ::kill(pid_, SIGTERM);
    exit_code_ = WaitFloe(pid_);
    return exit_code_;
  }

 private:
  std::filesystem::path dir_;
  pid_t pid_ = -1;
  int exit_code_ = -1;
  std::string uri_;
};

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

// The query that counts a table of ids: rows, distinct ids, the least and the greatest, from
// `source`, a ClickHouse table function (icebergLocal('...'), icebergS3(...)).
inline std::string ClickHouseIdCountQuery(const std::string& source) {
  return "SELECT count() AS n, uniqExact(id) AS ids, min(id) AS lo, max(id) AS hi FROM " + source +
         " FORMAT JSONEachRow";
}

// {"n", "ids", "lo", "hi"} of the one JSON line among out's lines (floe sql and ClickHouse print
// other lines too); empty unless there is exactly one. The min and max of an empty table are null:
// left out, so they differ from any expected value.
inline std::map<std::string, int64_t> IdCounts(const std::string& out) {
  std::map<std::string, int64_t> counts;
  std::vector<Json> rows;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with('{')) continue;
    auto row = Json::Parse(line);
    if (!row || !row->is_object()) return counts;
    rows.push_back(std::move(*row));
  }
  if (rows.size() != 1) return counts;
  for (const auto& [key, value] : rows.front().as_object()) {
    if (value.is_null()) continue;
    counts[key] = value.is_string() ? std::stoll(value.as_string()) : value.as_int();
  }
  return counts;
}

// What IdCounts gives for a table holding the ids 0..rows-1 once each.
inline std::map<std::string, int64_t> EveryIdOnce(int64_t rows) {
  return {{"n", rows}, {"ids", rows}, {"lo", 0}, {"hi", rows - 1}};
}

}  // namespace floe::cli::testing
