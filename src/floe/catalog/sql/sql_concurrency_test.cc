// Many writers on one table through the sql catalog, and failures in the middle of a commit: every
// commit lands exactly once, the snapshots form one chain, and the table always loads.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <thread>

#include "floe/catalog/sql/postgres_connection_internal.h"
#include "floe/catalog/sql/sql_catalog.h"
#include "floe/catalog/sql/sql_test_util.h"
#include "floe/catalog/test_commits.h"
#include "floe/io/fault_injecting_file_io.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata.h"

namespace floe::catalog {
namespace {

using sqltest::Backend;

constexpr int kThreads = 8;
constexpr int kProcesses = 4;
constexpr int kCommitsEach = 50;

// Its own suite name, so that its instantiation does not repeat sql_catalog_test.cc's.
class SqlConcurrencyTest : public sqltest::SqlCatalogTest {};

const TableIdentifier kTable{Namespace{{"db"}}, "events"};

CreateTableRequest Request() {
  CreateTableRequest request;
  request.schema = testing::SimpleSchema();
  return request;
}

Status AppendMany(Catalog& catalog, int worker) {
  for (int i = 0; i < kCommitsEach; ++i) {
    FLOE_RETURN_IF_ERROR(
        testing::AppendWithRetry(catalog, kTable, fmt::format("w{}-c{}", worker, i)));
  }
  return {};
}

TEST_P(SqlConcurrencyTest, ThreadsAndProcessesAppendingToOneTable) {
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto setup, Open());
    FLOE_ASSERT_OK(setup->CreateNamespace(kTable.ns, {}));
    FLOE_ASSERT_OK(setup->CreateTable(kTable, Request()));
  }
  // The processes are forked before any thread starts, each with its own catalog; they leave with
  // _exit so that nothing of this process (the temp folder, gtest's state) is torn down twice.
  std::vector<pid_t> children;
  std::fflush(nullptr);
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto catalog = Open();
      Status done =
          catalog ? AppendMany(**catalog, kThreads + p) : Status(std::unexpected(catalog.error()));
      if (!done) std::fprintf(stderr, "process %d: %s\n", p, done.error().ToString().c_str());
      std::fflush(stderr);
      ::_exit(done ? 0 : 1);
    }
    children.push_back(pid);
  }
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
    std::vector<Status> results(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] { results[t] = AppendMany(*catalog, t); });
    }
    for (std::thread& thread : threads) thread.join();
    for (const Status& result : results) FLOE_EXPECT_OK(result);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer process failed";
  }

  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, Open());
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, reader->LoadTable(kTable));
  const TableMetadata& metadata = *table.metadata;
  constexpr int kTotal = (kThreads + kProcesses) * kCommitsEach;

  // Every commit exactly once, in one chain from the current snapshot back to the first, with
  // falling sequence numbers; the snapshot log walks the same chain forwards.
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> writers, testing::ChainWriters(metadata));
  EXPECT_EQ(writers.size(), static_cast<size_t>(kTotal));
  EXPECT_EQ(std::set<std::string>(writers.begin(), writers.end()).size(),
            static_cast<size_t>(kTotal));
  EXPECT_EQ(metadata.snapshots().size(), static_cast<size_t>(kTotal));
  std::vector<int64_t> chain;
  for (SnapshotPtr s = metadata.current_snapshot(); s;
       s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    if (!chain.empty()) {
      EXPECT_LT(s->sequence_number, metadata.SnapshotById(chain.back())->sequence_number);
    }
    chain.push_back(s->snapshot_id);
    ASSERT_LE(chain.size(), static_cast<size_t>(kTotal));
  }
  std::vector<int64_t> log;
  for (const SnapshotLogEntry& entry : metadata.snapshot_log()) log.push_back(entry.snapshot_id);
  EXPECT_EQ(log, std::vector<int64_t>(chain.rbegin(), chain.rend()));
  EXPECT_EQ(metadata.last_sequence_number(), kTotal);

  // No data file lost: the current manifest list reaches every commit's file, once.
  io::LocalFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> files,
                            testing::CurrentDataFiles(io, metadata));
  EXPECT_EQ(files.size(), static_cast<size_t>(kTotal));
  EXPECT_EQ(std::set<std::string>(files.begin(), files.end()).size(), static_cast<size_t>(kTotal));

  // The catalog row, read by the database's own client, points at what the catalog loads.
  EXPECT_EQ(
      Query("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = " + NameLiteral()),
      (std::vector<std::string>{table.metadata_location}));
}

// Faults at every write, sync, close, rename and folder sync of the metadata file of a commit:
// afterwards the table loads (through a catalog with a healthy FileIO) at the old or the new
// metadata, and at the new one exactly when the commit reported success.
TEST_P(SqlConcurrencyTest, FaultsWhileWritingMetadataLeaveALoadableTable) {
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto setup, Open());
    FLOE_ASSERT_OK(setup->CreateNamespace(kTable.ns, {}));
    FLOE_ASSERT_OK(setup->CreateTable(kTable, Request()));
  }
  int step = 0;
  int faults = 0;
  for (io::FileOp op : {io::FileOp::kCreate, io::FileOp::kWrite, io::FileOp::kSync,
                        io::FileOp::kClose, io::FileOp::kRename, io::FileOp::kSyncDirectory}) {
    for (io::FaultAction action : {io::FaultAction::kFail, io::FaultAction::kCrash}) {
      for (int nth = 1;; ++nth) {
        auto faulty =
            std::make_shared<io::FaultInjectingFileIO>(std::make_shared<io::LocalFileIO>());
        FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open(faulty));
        FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable before, catalog->LoadTable(kTable));
        faulty->Inject({op, nth, action, "metadata.json"});
        TableCommit commit;
        commit.updates = {SetProperties{{{"step", std::to_string(++step)}}}};
        auto result = catalog->CommitTable(kTable, commit);
        bool fired = faulty->faults_fired() > 0;

        FLOE_ASSERT_OK_AND_ASSIGN(auto healthy, Open());
        FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, healthy->LoadTable(kTable));
        std::string what = fmt::format("{} #{} ({})", io::FileOpName(op), nth,
                                       action == io::FaultAction::kFail ? "fail" : "crash");
        if (result) {
          EXPECT_EQ(after.metadata_location, result->metadata_location) << what;
          EXPECT_EQ(after.metadata->property("step"), std::to_string(step)) << what;
        } else if (result.error().kind() != ErrorKind::kCommitStateUnknown) {
          EXPECT_EQ(after.metadata_location, before.metadata_location)
              << what << ": " << result.error().ToString();
        } else {
          EXPECT_TRUE(after.metadata_location == before.metadata_location ||
                      after.metadata->property("step") == std::to_string(step))
              << what;
        }
        if (!fired) {
          FLOE_EXPECT_OK(result);
          break;
        }
        ++faults;
        EXPECT_FALSE(result) << what << " fired but the commit reported success";
      }
    }
  }
  EXPECT_GT(faults, 6);
}

// The connection dies while the swap waits on a row lock held elsewhere: the outcome is unknown to
// the committer, which must say so and keep the metadata file it wrote (had the swap landed, the
// table would point at it).
TEST_P(SqlConcurrencyTest, ConnectionLostDuringTheSwapIsCommitStateUnknown) {
  if (GetParam() != Backend::kPostgres) GTEST_SKIP() << "needs a server connection to kill";
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  FLOE_ASSERT_OK(catalog->CreateNamespace(kTable.ns, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base, catalog->CreateTable(kTable, Request()));

  FLOE_ASSERT_OK_AND_ASSIGN(auto locker, OpenPostgresConnection(uri_, std::nullopt, std::nullopt));
  FLOE_ASSERT_OK(locker->Begin());
  FLOE_ASSERT_OK(locker->Execute(
      "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? FOR UPDATE", {name_}));

  Result<LoadedTable> result = NotFound("not run");
  std::thread committer([&] {
    TableCommit commit;
    commit.updates = {SetProperties{{{"k", "v"}}}};
    result = catalog->CommitTable(kTable, commit);
  });
  // Wait until the swap is blocked on the lock, then end its session. (The watcher is outside any
  // transaction: PostgreSQL shows a transaction one snapshot of pg_stat_activity.)
  FLOE_ASSERT_OK_AND_ASSIGN(auto killer, OpenPostgresConnection(uri_, std::nullopt, std::nullopt));
  std::string victim;
  for (int polls = 0; victim.empty(); ++polls) {
    ASSERT_LT(polls, 6000) << "the swap never waited on the lock";
    auto waiting = killer->Execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND "
        "wait_event_type = 'Lock' AND query LIKE 'UPDATE iceberg_tables SET metadata_location%'");
    ASSERT_TRUE(waiting) << waiting.error().ToString();
    if (!waiting->rows.empty()) victim = *waiting->rows[0][0];
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FLOE_ASSERT_OK(killer->Execute("SELECT pg_terminate_backend(CAST(? AS INTEGER))", {victim}));
  committer.join();
  locker->Rollback();

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind(), ErrorKind::kCommitStateUnknown) << result.error().ToString();
  // Here the swap did not land; the file it would have pointed at is still there.
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, catalog->LoadTable(kTable));
  EXPECT_EQ(after.metadata_location, base.metadata_location);
  int metadata_files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(warehouse_ + "/db/events/metadata")) {
    metadata_files += entry.path().string().ends_with(".metadata.json");
  }
  EXPECT_EQ(metadata_files, 2);
  // The catalog carries on with a fresh connection.
  TableCommit retry;
  retry.updates = {SetProperties{{{"k", "v"}}}};
  FLOE_EXPECT_OK(catalog->CommitTable(kTable, retry));
}

INSTANTIATE_TEST_SUITE_P(Backends, SqlConcurrencyTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kRest),
                         sqltest::BackendName);

}  // namespace
}  // namespace floe::catalog
