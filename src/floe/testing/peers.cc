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

}  // namespace floe::testing
