// The public API as a user gets it: `cmake --install` of this build into a temp folder, the
// installed headers checked against the rule that picks them, then examples/library configured
// with find_package(floe) against that folder, built, and run against both libraries.

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "floe/testing/testing.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;

// The rule of docs/architecture.md ("Public API"), applied to a header below src/floe.
bool IsPublicHeader(const fs::path& root, const std::string& relative) {
  if (!relative.ends_with(".h")) return false;
  if (relative.starts_with("cli/") || relative.starts_with("python/") ||
      relative.starts_with("testing/")) {
    return false;
  }
  if (relative.ends_with("_internal.h")) return false;
  if (fs::path(relative).filename().string().find("test") != std::string::npos) return false;
  static const std::regex kGoogleTest("(^|\n)#include <(gtest|gmock)/");
  return !std::regex_search(testing::ReadFileOrDie(root / relative), kGoogleTest);
}

std::set<std::string> HeadersBelow(const fs::path& root) {
  std::set<std::string> headers;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) headers.insert(fs::relative(entry.path(), root).string());
  }
  return headers;
}

std::string Quote(const fs::path& path) { return testing::ShellQuote(path.string()); }

// The command's output (stdout and stderr); a failure of the test when it fails.
std::string Sh(const std::string& command) {
  testing::CommandRun run = RunCommand(command + " 2>&1");
  EXPECT_EQ(run.exit_code, 0) << command << "\n" << run.out;
  return run.out;
}

TEST(LibraryTest, InstalledPackageBuildsAndRunsAProgram) {
  if (!fs::exists(FLOE_CMAKE)) GTEST_SKIP() << "no cmake at " << FLOE_CMAKE;
  testing::TempDir dir;
  const fs::path prefix = dir.path() / "prefix";
  const std::string cmake = Quote(FLOE_CMAKE);
  Sh(cmake + " --install " + Quote(FLOE_BUILD_DIR) + " --prefix " + Quote(prefix));
  if (HasFailure()) return;

  // Exactly the public headers are installed, and they include only each other.
  std::set<std::string> expected;
  const fs::path sources = fs::path(FLOE_SOURCE_DIR) / "src/floe";
  for (const std::string& header : HeadersBelow(sources)) {
    if (IsPublicHeader(sources, header)) expected.insert(header);
  }
  const fs::path include = prefix / "include/floe";
  std::set<std::string> installed = HeadersBelow(include);
  EXPECT_EQ(installed, expected);
  std::regex floe_include(R"re(#include "(floe/[^"]+)")re");
  for (const std::string& header : installed) {
    std::string text = testing::ReadFileOrDie(include / header);
    for (std::sregex_iterator it(text.begin(), text.end(), floe_include), end; it != end; ++it) {
      EXPECT_TRUE(fs::exists(prefix / "include" / (*it)[1].str()))
          << header << " includes " << (*it)[1].str() << ", which is not installed";
    }
  }

  const fs::path build = dir.path() / "build";
  Sh(cmake + " -S " + Quote(std::string(FLOE_SOURCE_DIR) + "/examples/library") + " -B " +
     Quote(build) + " -G " + Quote(FLOE_CMAKE_GENERATOR) + " -DCMAKE_CXX_COMPILER=" +
     Quote(FLOE_CXX_COMPILER) + " -DCMAKE_CXX_FLAGS=" + Quote(FLOE_CONSUMER_FLAGS) +
     " -DCMAKE_EXE_LINKER_FLAGS=" + Quote(FLOE_CONSUMER_FLAGS) +
     " -DCMAKE_PREFIX_PATH=" + Quote(prefix));
  if (HasFailure()) return;
  Sh(cmake + " --build " + Quote(build));
  if (HasFailure()) return;

  // The ids above 500 of 1..1000: 500 rows summing to (501 + 1000) * 500 / 2.
  for (const char* program : {"count_rows", "count_rows_static"}) {
    const fs::path warehouse = dir.path() / (std::string("warehouse_") + program);
    EXPECT_EQ(Sh(Quote(build / program) + " " + Quote(warehouse) + " 1000"),
              "rows=500 id_sum=375250\n")
        << program;
    EXPECT_TRUE(fs::exists(warehouse / "db/events/metadata/v2.metadata.json")) << program;
  }
  // Which library each program links.
  const std::string needed_shared = Sh("readelf -d " + Quote(build / "count_rows"));
  const std::string needed_static = Sh("readelf -d " + Quote(build / "count_rows_static"));
  EXPECT_EQ(needed_static.find("libfloe"), std::string::npos);
  if (FLOE_SHARED_BUILT) {
    EXPECT_NE(needed_shared.find("[libfloe.so.0]"), std::string::npos) << needed_shared;
    EXPECT_TRUE(fs::exists(prefix / FLOE_LIBDIR / "libfloe.so.0"));
  }
  EXPECT_TRUE(fs::exists(prefix / FLOE_LIBDIR / "libfloe.a"));
  EXPECT_TRUE(fs::exists(prefix / FLOE_LIBDIR / "cmake/floe/floeConfig.cmake"));
}

}  // namespace
}  // namespace floe
