#pragma once

// Test helpers: where the shared test data lives, and throwaway folders.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::testing {

// ../shared beside the checkout (or $FLOE_SHARED_DIR): testdata/, peers/, bench/.
std::filesystem::path SharedDir();
inline std::filesystem::path TestDataDir() { return SharedDir() / "testdata"; }

// The Iceberg tables of the shared test data (folders relative to TestDataDir()), as its
// MANIFEST.txt lists them: each table's line is followed by one with its format versions.
std::vector<std::string> TestDataTables();

// Reads a whole file; fails the test (and returns "") when it cannot.
std::string ReadFileOrDie(const std::filesystem::path& path);

// The word in single quotes for /bin/sh, each embedded quote written as '\''.
std::string ShellQuote(std::string_view word);

// What a shell command did: its exit code (-1 when it did not exit normally), stdout and stderr.
struct CommandRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs command through /bin/sh (quote its words with ShellQuote), capturing both streams.
CommandRun RunCommand(const std::string& command);

// A fresh folder under the system temp dir, removed with everything in it when destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace floe::testing

// Unwraps a Result in a test, failing the test with the error message when it holds an error.
#define FLOE_ASSERT_OK_AND_ASSIGN(lhs, expr) \
  FLOE_ASSERT_OK_AND_ASSIGN_IMPL(FLOE_CONCAT(floe_test_result_, __LINE__), lhs, expr)
#define FLOE_ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, expr)    \
  auto tmp = (expr);                                      \
  ASSERT_TRUE(tmp.has_value()) << tmp.error().ToString(); \
  lhs = std::move(tmp).value()
#define FLOE_ASSERT_OK(expr)                                                            \
  do {                                                                                  \
    auto&& floe_test_status_ = (expr);                                                  \
    ASSERT_TRUE(floe_test_status_.has_value()) << floe_test_status_.error().ToString(); \
  } while (false)
#define FLOE_EXPECT_OK(expr)                                                            \
  do {                                                                                  \
    auto&& floe_test_status_ = (expr);                                                  \
    EXPECT_TRUE(floe_test_status_.has_value()) << floe_test_status_.error().ToString(); \
  } while (false)
