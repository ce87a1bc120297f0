// Issue 5's fault-injection test for hadoop commits: a failure or a crash at every write, rename
// and fsync step of a commit leaves the table at the old or the new version, loadable, and able
// to take the next commit; a commit reported as failed did not happen, and one reported as done
// did.

#include <gtest/gtest.h>

#include <map>

#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/io/fault_injecting_file_io.h"
#include "floe/io/local_file_io.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

const TableIdentifier kTable{{{"db"}}, "t"};

TableCommit SetProperty(const TableMetadata& base) {
  TableCommit commit;
  commit.requirements.emplace_back(std::in_place_type<AssertTableUuid>, base.table_uuid());
  commit.updates.push_back(SetProperties{{{"committed", "yes"}}});
  return commit;
}

struct FaultyTable {
  floe::testing::TempDir dir;
  std::shared_ptr<io::LocalFileIO> local = std::make_shared<io::LocalFileIO>();
  std::shared_ptr<io::FaultInjectingFileIO> faulty =
      std::make_shared<io::FaultInjectingFileIO>(local);
  std::shared_ptr<HadoopCatalog> catalog;
  std::shared_ptr<HadoopCatalog> clean;  // a restarted process: no faults
  LoadedTable base;

  FaultyTable() {
    StringMap properties{{"warehouse", dir.path().string()}};
    catalog = *HadoopCatalog::Make("hadoop", properties, faulty);
    clean = *HadoopCatalog::Make("hadoop", properties, local);
    CreateTableRequest request;
    request.schema = testing::SimpleSchema();
    // Old metadata files are deleted after commits, so that deletion is a step too.
    request.properties = {{"write.metadata.previous-versions-max", "1"},
                          {"write.metadata.delete-after-commit.enabled", "true"}};
    EXPECT_TRUE(clean->CreateTable(kTable, request).has_value());
    EXPECT_TRUE(testing::AppendWithRetry(*clean, kTable, "first").has_value());
    base = *clean->LoadTable(kTable);
  }
};

constexpr io::FileOp kSteps[] = {
    io::FileOp::kCreate, io::FileOp::kWrite,  io::FileOp::kSync,
    io::FileOp::kClose,  io::FileOp::kRename, io::FileOp::kSyncDirectory,
    io::FileOp::kDelete, io::FileOp::kOpen,   io::FileOp::kList};

TEST(HadoopFaultTest, EveryStepOfACommitFailsOrCrashesSafely) {
  // How many operations of each kind one clean commit performs.
  std::map<io::FileOp, int64_t> steps;
  {
    FaultyTable setup;
    std::map<io::FileOp, int64_t> before;
    for (io::FileOp op : kSteps) before[op] = setup.faulty->count(op);
    FLOE_ASSERT_OK(setup.catalog->CommitTable(kTable, SetProperty(*setup.base.metadata)));
    for (io::FileOp op : kSteps) steps[op] = setup.faulty->count(op) - before[op];
  }
  EXPECT_GE(steps[io::FileOp::kRename], 2);         // the version, then the hint
  EXPECT_GE(steps[io::FileOp::kSyncDirectory], 1);  // the version's name made durable
  EXPECT_GE(steps[io::FileOp::kDelete], 1);         // the metadata file that fell out of the log

  int cases = 0;
  for (io::FileOp op : kSteps) {
    for (int64_t nth = 1; nth <= steps[op]; ++nth) {
      for (io::FaultAction action :
           {io::FaultAction::kFail, io::FaultAction::kCrash, io::FaultAction::kCrashTornWrite}) {
        SCOPED_TRACE(
            fmt::format("{} #{} action {}", io::FileOpName(op), nth, static_cast<int>(action)));
        FaultyTable setup;
        setup.faulty->Inject({op, nth, action, ""});
        auto result = setup.catalog->CommitTable(kTable, SetProperty(*setup.base.metadata));
        ASSERT_EQ(setup.faulty->faults_fired(), 1);
        ++cases;

        // What a restarted process finds.
        FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, setup.clean->LoadTable(kTable));
        bool landed = after.metadata->properties().contains("committed");
        if (landed) {
          EXPECT_EQ(after.metadata->metadata_log().back().metadata_file,
                    setup.base.metadata_location);
        } else {
          EXPECT_EQ(after.metadata_location, setup.base.metadata_location);
        }
        if (result) {
          EXPECT_TRUE(landed) << "reported committed, but the table is at the old version";
        } else if (result.error().kind() != ErrorKind::kCommitStateUnknown) {
          EXPECT_FALSE(landed) << "reported failed (" << result.error().ToString()
                               << "), but the commit landed";
        }
        // The table takes the next commit.
        FLOE_ASSERT_OK(testing::AppendWithRetry(*setup.clean, kTable, "next"));
        FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable next, setup.clean->LoadTable(kTable));
        EXPECT_EQ(next.metadata->properties().contains("committed"), landed);
        FLOE_ASSERT_OK_AND_ASSIGN(auto chain, testing::ChainWriters(*next.metadata));
        EXPECT_EQ(chain, (std::vector<std::string>{"next", "first"}));
      }
    }
  }
  EXPECT_GT(cases, 20);
}

}  // namespace
}  // namespace floe::catalog
