// rewrite_data_files on a table with real files, appends, an overwrite, position and equality
// deletes and a spec change (history_test_table.h). The rows are checked with independent readers:
// ClickHouse (icebergLocal) and icebird read the table exported in the hadoop layout before and
// after; DuckDB reads the live data files with read_parquet after a full rewrite, when no delete
// file is left to apply.

#include "floe/table/actions/rewrite_data_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "floe/catalog/memory_catalog.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/table/actions/history_test_table.h"
#include "floe/table/update/test_table.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::table {
namespace {

using Row = std::tuple<int64_t, std::string, std::string>;

// Rows printed as JSON lines (id, data, category), sorted.
std::vector<Row> ParseRows(const std::string& out) {
  std::vector<Row> rows;
  auto lines = floe::testing::ParseJsonLines(out);
  EXPECT_TRUE(lines) << out;
  if (!lines) return rows;
  for (const Json& json : *lines) {
    const Json* id = json.Find("id");
    if (id == nullptr) continue;
    rows.emplace_back(id->is_string() ? std::stoll(id->as_string()) : id->as_int(),
                      json.GetString("data").value(), json.GetString("category").value());
  }
  std::ranges::sort(rows);
  return rows;
}

class RewriteDataFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = std::make_shared<io::LocalFileIO>();
    warehouse_ = dir_.path().string();
    catalog_ = std::make_shared<catalog::MemoryCatalog>("mem", io_, warehouse_);
    location_ = warehouse_ + "/db/t";
    // The catalog's own metadata files go aside, so that metadata/ holds only the hadoop layout.
    ASSERT_TRUE(catalog_->CreateNamespace(ident_.ns, {}));
    auto made = test::MakeHistoryTable(catalog_, ident_,
                                       {{"write.metadata.path", location_ + "/floe-metadata"}});
    ASSERT_TRUE(made) << made.error().ToString();
    history_ = std::move(*made);
  }

  // The rows ClickHouse reads from the table as it is now; nullopt without the peer.
  std::optional<std::vector<Row>> PeerRows() {
    if (!floe::testing::PeerInstalled("chdb")) return std::nullopt;
    ++version_;
    const std::string folder = location_ + "/metadata";
    EXPECT_TRUE(WriteTableMetadata(*io_,
                                   folder + "/v" + std::to_string(version_) + ".metadata.json",
                                   *history_.table->metadata(), false));
    EXPECT_TRUE(io_->WriteFile(folder + "/version-hint.text", std::to_string(version_), true));
    auto out = floe::testing::RunPeer(
        "ch", {"SELECT id, data, category FROM icebergLocal('" + location_ + "')", "JSONEachRow"});
    EXPECT_TRUE(out) << out.error().ToString();
    if (!out) return std::vector<Row>{};
    if (floe::testing::PeerInstalled("icebird")) {
      auto icebird = floe::testing::RunPeer("icebird-read", {location_});
      EXPECT_TRUE(icebird) << icebird.error().ToString();
      if (icebird) {
        EXPECT_EQ(ParseRows(*icebird), ParseRows(*out));
      }
    }
    return ParseRows(*out);
  }

  // Live entries of the current snapshot, by content.
  std::vector<manifest::DataFile> Live(manifest::FileContent content) const {
    std::vector<manifest::DataFile> out;
    SnapshotPtr snapshot = history_.table->metadata()->current_snapshot();
    for (const auto& entry : test::EntriesOf(*io_, *snapshot)) {
      if (entry.status != manifest::EntryStatus::kDeleted && entry.data_file.content == content) {
        out.push_back(entry.data_file);
      }
    }
    return out;
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<io::LocalFileIO> io_;
  std::string warehouse_;
  std::string location_;
  std::shared_ptr<catalog::MemoryCatalog> catalog_;
  catalog::TableIdentifier ident_{catalog::Namespace{{"db"}}, "t"};
  test::HistoryTable history_;
  int version_ = 0;
};

TEST_F(RewriteDataFilesTest, BinPacksEveryPartitionAndDropsDeletesThatNoLongerApply) {
  const auto before = PeerRows();
  const auto data_before = Live(manifest::FileContent::kData);
  ASSERT_FALSE(Live(manifest::FileContent::kPositionDeletes).empty());
  ASSERT_FALSE(Live(manifest::FileContent::kEqualityDeletes).empty());

  FLOE_ASSERT_OK_AND_ASSIGN(auto options,
                            RewriteDataFilesOptions::Parse({{"min-input-files", "2"}}));
  FLOE_ASSERT_OK_AND_ASSIGN(RewriteDataFilesResult result,
                            RewriteDataFiles(*history_.table, options));

  const auto data_after = Live(manifest::FileContent::kData);
  EXPECT_LT(data_after.size(), data_before.size());
  EXPECT_EQ(result.rewritten_data_files - result.added_data_files,
            static_cast<int64_t>(data_before.size() - data_after.size()));
  int64_t bytes = 0;
  for (const auto& file : data_before) {
    if (std::ranges::none_of(data_after,
                             [&](const auto& f) { return f.file_path == file.file_path; })) {
      bytes += file.file_size_in_bytes;
    }
  }
  EXPECT_EQ(result.rewritten_bytes, bytes);
  EXPECT_EQ(result.failed_data_files, 0);
  // Every file with deletes was in a rewritten group: no delete file applies any more.
  EXPECT_TRUE(Live(manifest::FileContent::kPositionDeletes).empty());
  EXPECT_TRUE(Live(manifest::FileContent::kEqualityDeletes).empty());
  EXPECT_EQ(result.removed_delete_files, 2);
  ASSERT_TRUE(result.snapshot_id);
  EXPECT_EQ(history_.table->metadata()->current_snapshot()->operation(), "replace");

  if (before) {
    EXPECT_EQ(before->size(), 14U);  // 16 rows written, ids 8 and 10 deleted
    EXPECT_EQ(PeerRows(), before);
  }
  // With no deletes left, the data files alone hold the table's rows.
  std::string list;
  for (const auto& file : data_after) list += (list.empty() ? "'" : ",'") + file.file_path + "'";
  auto duck = floe::testing::RunPeer(
      "duck", {"SELECT id, data, category FROM read_parquet([" + list + "]) ORDER BY id"});
  if (!duck) GTEST_SKIP() << "DuckDB: " << duck.error().ToString();
  if (before) {
    EXPECT_EQ(ParseRows(*duck), *before);
  }
}

TEST_F(RewriteDataFilesTest, NothingToDoWithoutEnoughFiles) {
  const auto data_before = Live(manifest::FileContent::kData);
  const int64_t snapshot = *history_.table->metadata()->current_snapshot_id();
  FLOE_ASSERT_OK_AND_ASSIGN(auto options,
                            RewriteDataFilesOptions::Parse({{"min-input-files", "100"}}));
  FLOE_ASSERT_OK_AND_ASSIGN(RewriteDataFilesResult result,
                            RewriteDataFiles(*history_.table, options));
  EXPECT_EQ(result.rewritten_data_files, 0);
  EXPECT_FALSE(result.snapshot_id);
  EXPECT_EQ(*history_.table->metadata()->current_snapshot_id(), snapshot);
}

TEST_F(RewriteDataFilesTest, FilterLimitsTheRewriteToMatchingFiles) {
  RewriteDataFilesOptions options;
  options.min_input_files = 2;
  options.filter = expr::Equal("category", Literal::String("a"));
  const auto before = PeerRows();
  FLOE_ASSERT_OK_AND_ASSIGN(RewriteDataFilesResult result,
                            RewriteDataFiles(*history_.table, options));
  EXPECT_GT(result.rewritten_data_files, 0);
  // Files of category b were left alone: the deletes that apply to them stay.
  EXPECT_EQ(Live(manifest::FileContent::kPositionDeletes).size(), 1U);
  EXPECT_EQ(Live(manifest::FileContent::kEqualityDeletes).size(), 1U);
  EXPECT_EQ(result.removed_delete_files, 0);
  if (before) {
    EXPECT_EQ(PeerRows(), before);
  }
}

TEST_F(RewriteDataFilesTest, ConcurrentDeleteIsRetriedFromTheNewSnapshot) {
  // A second writer holds an older view: its plan starts before a delete committed elsewhere.
  std::shared_ptr<Table> stale = Table::Load(catalog_, ident_).value();
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto setup,
                              TableWriteSetup::Make(*history_.table->metadata(), io_.get()));
    const auto data = Live(manifest::FileContent::kData);
    const manifest::DataFile target = data.back();
    WriterContext context = setup->Context(history_.table->metadata()->SpecById(target.spec_id));
    PositionDeleteWriter positions(context.DeleteOptions(target.partition, nullptr, nullptr));
    positions.Delete(target.file_path, 0);
    FLOE_ASSERT_OK_AND_ASSIGN(auto files, positions.Close());
    // Committed through another Table object after `stale` loaded.
    auto delta = history_.table->NewRowDelta();
    for (auto& file : files) delta->AddDeletes(std::move(file));
    FLOE_ASSERT_OK(delta->Commit());
  }
  const auto before = PeerRows();

  RewriteDataFilesOptions no_retry;
  no_retry.rewrite_all = true;
  no_retry.max_commit_retries = 0;
  auto failed = RewriteDataFiles(*stale, no_retry);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind(), ErrorKind::kCommitFailed) << failed.error().ToString();
  FLOE_ASSERT_OK(history_.table->Refresh());
  if (before) {
    EXPECT_EQ(PeerRows(), before);
  }

  stale = Table::Load(catalog_, ident_).value();
  FLOE_ASSERT_OK(history_.table->Refresh());
  // Stale again: another commit lands between load and rewrite.
  FLOE_ASSERT_OK(test::AppendHistoryRows(*history_.table, {{100, "late", "a"}}));
  RewriteDataFilesOptions retry;
  retry.rewrite_all = true;
  FLOE_ASSERT_OK_AND_ASSIGN(RewriteDataFilesResult result, RewriteDataFiles(*stale, retry));
  EXPECT_TRUE(result.snapshot_id);
  FLOE_ASSERT_OK(history_.table->Refresh());
  if (before) {
    auto expected = *before;
    expected.emplace_back(100, "late", "a");
    std::ranges::sort(expected);
    EXPECT_EQ(PeerRows(), expected);
  }
}

TEST(RewriteDataFilesOptionsTest, UnknownAndMalformedOptionsAreNamed) {
  auto unknown = RewriteDataFilesOptions::Parse({{"target-size", "1"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("target-size"), std::string::npos);
  EXPECT_NE(unknown.error().message().find("target-file-size-bytes"), std::string::npos);
  auto bad = RewriteDataFilesOptions::Parse({{"min-input-files", "two"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("min-input-files"), std::string::npos);
  FLOE_ASSERT_OK_AND_ASSIGN(auto parsed,
                            RewriteDataFilesOptions::Parse(
                                {{"target-file-size-bytes", "1024"}, {"rewrite-all", "true"}}));
  EXPECT_EQ(parsed.target_file_size, 1024);
  EXPECT_TRUE(parsed.rewrite_all);
}

}  // namespace
}  // namespace floe::table
