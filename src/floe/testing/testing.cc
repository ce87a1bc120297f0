#include "floe/testing/testing.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

namespace floe::testing {

std::filesystem::path SharedDir() {
  if (const char* env = std::getenv("FLOE_SHARED_DIR"); env != nullptr && *env != '\0') return env;
  return FLOE_SHARED_DIR_DEFAULT;
}

std::vector<std::string> TestDataTables() {
  std::ifstream manifest(TestDataDir() / "MANIFEST.txt");
  EXPECT_TRUE(manifest.good()) << "cannot open " << TestDataDir() / "MANIFEST.txt";
  std::vector<std::string> tables;
  std::string line, previous;
  while (std::getline(manifest, line)) {
    if (line.starts_with("   fv=[") && !previous.empty()) tables.push_back(previous);
    previous = line;
  }
  return tables;
}

std::string ReadFileOrDie(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TempDir::TempDir() {
  std::random_device random;
  path_ = std::filesystem::temp_directory_path() /
          ("floe-test-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string ShellQuote(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

CommandRun RunCommand(const std::string& command) {
  TempDir scratch;
  const std::filesystem::path err = scratch.path() / "stderr";
  CommandRun run;
  FILE* pipe = popen((command + " 2>" + ShellQuote(err.string())).c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  std::ostringstream text;
  text << in.rdbuf();
  run.err = text.str();
  return run;
}

}  // namespace floe::testing
