// Issue 5's concurrency test for the hadoop catalog: 8 threads and 4 processes append to one
// table, 50 commits each, retrying lost races. Afterwards every commit is there exactly once, the
// snapshots form one parent chain that the snapshot log follows, and no data file is lost.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <set>
#include <thread>

#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

constexpr int kThreads = 8;
constexpr int kProcesses = 4;
constexpr int kCommitsEach = 50;

const TableIdentifier kTable{{{"db"}}, "appends"};

std::string Tag(std::string_view who, int writer, int commit) {
  return fmt::format("{}{}-{}", who, writer, commit);
}

// The loop each writer runs; false (with the error printed) when a commit fails for good.
bool AppendAll(Catalog& catalog, std::string_view who, int writer) {
  for (int i = 0; i < kCommitsEach; ++i) {
    auto attempts = testing::AppendWithRetry(catalog, kTable, Tag(who, writer, i));
    if (!attempts) {
      fmt::print(stderr, "{}{}: commit {} failed: {}\n", who, writer, i,
                 attempts.error().ToString());
      return false;
    }
  }
  return true;
}

TEST(HadoopConcurrencyTest, ThreadsAndProcessesAppendToOneTable) {
  floe::testing::TempDir dir;
  StringMap properties{{"warehouse", dir.path().string()}};
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, HadoopCatalog::Make("hadoop", properties));
  CreateTableRequest request;
  request.schema = testing::SimpleSchema();
  FLOE_ASSERT_OK(catalog->CreateTable(kTable, request));

  // The processes are forked before any thread exists and wait for the threads' start.
  int start[2];
  ASSERT_EQ(pipe(start), 0);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(start[1]);
      char byte;
      (void)!read(start[0], &byte, 1);
      auto own = HadoopCatalog::Make("hadoop", properties);
      _exit(own && AppendAll(**own, "p", p) ? 0 : 1);
    }
    children.push_back(pid);
  }
  close(start[0]);

  std::vector<std::thread> threads;
  std::vector<char> ok(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { ok[t] = AppendAll(*catalog, "t", t); });
  }
  close(start[1]);
  for (auto& thread : threads) thread.join();
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "process " << pid;
  }
  for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(ok[t]) << "thread " << t;

  std::set<std::string> expected;
  for (int w = 0; w < kThreads; ++w) {
    for (int i = 0; i < kCommitsEach; ++i) expected.insert(Tag("t", w, i));
  }
  for (int w = 0; w < kProcesses; ++w) {
    for (int i = 0; i < kCommitsEach; ++i) expected.insert(Tag("p", w, i));
  }
  size_t total = expected.size();

  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, catalog->LoadTable(kTable));
  const TableMetadata& metadata = *table.metadata;
  // One metadata version per commit, after the create.
  EXPECT_TRUE(table.metadata_location.ends_with(fmt::format("/v{}.metadata.json", total + 1)))
      << table.metadata_location;
  EXPECT_EQ(metadata.snapshots().size(), total);
  EXPECT_EQ(metadata.last_sequence_number(), static_cast<int64_t>(total));

  // A single chain from the current snapshot back to the first, holding every commit once.
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> chain, testing::ChainWriters(metadata));
  ASSERT_EQ(chain.size(), total);
  EXPECT_EQ(std::set<std::string>(chain.begin(), chain.end()), expected);

  // The snapshot log lists the chain in commit order.
  ASSERT_EQ(metadata.snapshot_log().size(), total);
  SnapshotPtr snapshot = metadata.current_snapshot();
  for (size_t i = total; i-- > 0;) {
    ASSERT_NE(snapshot, nullptr);
    EXPECT_EQ(metadata.snapshot_log()[i].snapshot_id, snapshot->snapshot_id);
    EXPECT_EQ(snapshot->sequence_number, static_cast<int64_t>(i + 1));
    snapshot = snapshot->parent_snapshot_id ? metadata.SnapshotById(*snapshot->parent_snapshot_id)
                                            : nullptr;
  }

  // Every appended data file is in the current snapshot, once.
  FLOE_ASSERT_OK_AND_ASSIGN(auto files, testing::CurrentDataFiles(*catalog->file_io(), metadata));
  EXPECT_EQ(files.size(), total);
  std::set<std::string> expected_files;
  for (const std::string& tag : expected) {
    expected_files.insert(metadata.location() + "/data/" + tag + ".parquet");
  }
  EXPECT_EQ(std::set<std::string>(files.begin(), files.end()), expected_files);
}

}  // namespace
}  // namespace floe::catalog
