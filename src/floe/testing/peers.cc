#include "floe/testing/peers.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "floe/testing/testing.h"

namespace floe::testing {
namespace {

// Wraps a word in single quotes for /bin/sh, each embedded quote written as '\''.
void AppendShellQuoted(std::string& out, std::string_view word) {
  out.push_back('\'');
  for (char c : word) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
}

}  // namespace

std::filesystem::path PeersHome() {
  if (const char* env = std::getenv("FLOE_PEERS_HOME"); env != nullptr && *env != '\0') return env;
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/root") / ".cache" / "floe-peers";
}

bool PeerInstalled(std::string_view package) {
  return std::filesystem::exists(PeersHome() / "node_modules" / package);
}

Result<std::string> RunPeer(std::string_view tool, const std::vector<std::string>& args) {
  TempDir scratch;
  std::filesystem::path err = scratch.path() / "stderr";
  std::string command;
  AppendShellQuoted(command, (SharedDir() / "peers" / tool).string());
  for (const auto& arg : args) {
    command.push_back(' ');
    AppendShellQuoted(command, arg);
  }
  command.append(" 2>");
  AppendShellQuoted(command, err.string());
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return IOError("cannot run peer {}", tool);
  std::string output;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, n);
  int status = pclose(pipe);
  if (status != 0) {
    std::ifstream in(err);
    std::ostringstream message;
    message << in.rdbuf();
    return IOError("peer {} exited with status {}: {}", tool, WEXITSTATUS(status), message.str());
  }
  return output;
}

}  // namespace floe::testing
