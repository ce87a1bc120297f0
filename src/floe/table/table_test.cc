#include "floe/table/table.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "floe/expr/expression.h"
#include "floe/io/memory_file_io.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/test_table.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

std::set<std::string> PlannedPaths(const TableScan& scan) {
  std::set<std::string> paths;
  auto tasks = scan.PlanFiles();
  EXPECT_TRUE(tasks.has_value()) << tasks.error().message();
  if (!tasks) return paths;
  for (const FileScanTask& task : *tasks) paths.insert(task.data_file->file_path);
  return paths;
}

TEST(TableTest, NewScanPlansTheMetadataOfItsTime) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                                        /*partitioned=*/true));
  EXPECT_TRUE(PlannedPaths(t.table->NewScan()).empty());  // no snapshot yet

  auto first = t.table->NewFastAppend();
  first->AppendFile(test::DataFile("/warehouse/db/t/data/a1.parquet", 10, "a"))
      .AppendFile(test::DataFile("/warehouse/db/t/data/b1.parquet", 5, "b"));
  FLOE_ASSERT_OK(first->Commit());
  TableScan before = t.table->NewScan();

  auto second = t.table->NewFastAppend();
  second->AppendFile(test::DataFile("/warehouse/db/t/data/a2.parquet", 7, "a"));
  FLOE_ASSERT_OK(second->Commit());

  EXPECT_EQ(PlannedPaths(before), (std::set<std::string>{"/warehouse/db/t/data/a1.parquet",
                                                         "/warehouse/db/t/data/b1.parquet"}));
  TableScan now = t.table->NewScan();
  now.Filter(expr::Equal("category", Literal::String("a")));
  EXPECT_EQ(PlannedPaths(now), (std::set<std::string>{"/warehouse/db/t/data/a1.parquet",
                                                      "/warehouse/db/t/data/a2.parquet"}));
  TableScan old = t.table->NewScan();
  old.UseSnapshot(first->snapshot_id());
  EXPECT_EQ(PlannedPaths(old).size(), 2u);
}

}  // namespace
}  // namespace floe::table
