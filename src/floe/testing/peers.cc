#include "floe/testing/peers.h"

#include <cstdlib>

#include "floe/testing/testing.h"

namespace floe::testing {
std::filesystem::path PeersHome() {
  if (const char* env = std::getenv("FLOE_PEERS_HOME"); env != nullptr && *env != '\0') return env;
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/root") / ".cache" / "floe-peers";
}

bool PeerInstalled(std::string_view package) {
  return std::filesystem::exists(PeersHome() / "node_modules" / package);
}

Result<std::string> RunPeer(std::string_view tool, const std::vector<std::string>& args) {
  std::string command = ShellQuote((SharedDir() / "peers" / tool).string());
  for (const auto& arg : args) command += ' ' + ShellQuote(arg);
  CommandRun run = RunCommand(command);
  if (run.exit_code != 0) {
    return IOError("peer {} exited with status {}: {}", tool, run.exit_code, run.err);
  }
  return std::move(run.out);
}

Result<std::vector<Json>> ParseJsonLines(std::string_view out) {
  std::vector<Json> rows;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string_view::npos) end = out.size();
    std::string_view line = out.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(line));
    rows.push_back(std::move(json));
  }
  return rows;
}

}  // namespace floe::testing
