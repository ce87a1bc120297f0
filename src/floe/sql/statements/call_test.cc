// CALL procedures through a Session on the embedded catalog, on a table with a varied history
// (table/actions/history_test_table.h). Outcomes are checked against independent sources: the
// metadata JSON file (current-snapshot-id, snapshot summaries), the manifest lists and manifests
// as avro-cat decodes them, and which files exist on disk.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "floe/batch/value.h"
#include "floe/sql/session.h"
#include "floe/sql/statements/call_statements.h"
#include "floe/sql/syntax/parser.h"
#include "floe/sql/syntax/printer.h"
#include "floe/table/actions/history_test_table.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

int64_t AsLong(const Json& json) {
  return json.is_string() ? std::stoll(json.as_string()) : json.as_int();
}

std::vector<Json> AvroCat(const std::string& path) {
  auto out = floe::testing::RunPeer("avro-cat", {path});
  EXPECT_TRUE(out) << out.error().ToString();
  std::vector<Json> records;
  if (!out) return records;
  std::istringstream lines(*out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) records.push_back(Json::Parse(line).value());
  }
  return records;
}

std::set<std::string> FilesUnder(const std::filesystem::path& folder) {
  std::set<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file()) out.insert(entry.path().string());
  }
  return out;
}

class CallTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = std::make_unique<Session>(
        SessionOptions{.embedded_warehouse = (dir_.path() / "warehouse").string()});
    FLOE_ASSERT_OK(session_->Open());
    // Queries count rows in one final batch, not a changelog.
    FLOE_ASSERT_OK(session_->ExecuteSql("SET 'execution.runtime-mode' = 'batch'"));
    FLOE_ASSERT_OK_AND_ASSIGN(ResolvedName name, session_->ResolveTable(ObjectName{{"t"}}));
    FLOE_ASSERT_OK_AND_ASSIGN(catalog_, session_->IcebergCatalog(name));
    ident_ = name.ident();
    FLOE_ASSERT_OK_AND_ASSIGN(history_, table::test::MakeHistoryTable(catalog_, ident_));
  }

  // The table's metadata JSON as committed now.
  Json MetadataJson() {
    auto table = table::Table::Load(catalog_, ident_).value();
    std::ifstream in(table->metadata_location());
    std::stringstream text;
    text << in.rdbuf();
    return Json::Parse(text.str()).value();
  }

  // The one result row of a CALL, by column name.
  std::map<std::string, Value> Call(const std::string& sql) {
    auto result = session_->ExecuteSql(sql);
    EXPECT_TRUE(result) << sql << ": " << result.error().ToString();
    std::map<std::string, Value> row;
    if (!result) return row;
    EXPECT_EQ(result->kind, StatementResult::Kind::kRows);
    auto batch = result->rows->Next();
    EXPECT_TRUE(batch && *batch);
    if (!batch || !*batch) return row;
    EXPECT_EQ((*batch)->num_rows(), 1);
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      row[(*batch)->field(c).name] = GetValue((*batch)->column(c), 0);
    }
    return row;
  }

  std::string Error(const std::string& sql) {
    auto result = session_->ExecuteSql(sql);
    EXPECT_FALSE(result) << sql;
    return result ? "" : result.error().message();
  }

  floe::testing::TempDir dir_;
  std::unique_ptr<Session> session_;
  std::shared_ptr<catalog::Catalog> catalog_;
  catalog::TableIdentifier ident_;
  table::test::HistoryTable history_;
};

TEST_F(CallTest, RewriteDataFilesReportsWhatTheCommitRecords) {
  const auto row = Call(
      "CALL system.rewrite_data_files(table => 'default.t', "
      "options => MAP['min-input-files', '2'])");
  std::vector<std::string> columns;
  for (const auto& [name, value] : row) columns.push_back(name);
  EXPECT_EQ(columns,
            (std::vector<std::string>{"added_data_files_count", "failed_data_files_count",
                                      "rewritten_bytes_count", "rewritten_data_files_count"}));
  const Json json = MetadataJson();
  const int64_t current = AsLong(*json.Find("current-snapshot-id"));
  const Json* summary = nullptr;
  for (const Json& s : json.Find("snapshots")->as_array()) {
    if (AsLong(*s.Find("snapshot-id")) == current) summary = s.Find("summary");
  }
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->GetString("operation").value(), "replace");
  EXPECT_EQ(row.at("rewritten_data_files_count"),
            Value(std::stoll(summary->GetString("deleted-data-files").value())));
  EXPECT_EQ(row.at("added_data_files_count"),
            Value(std::stoll(summary->GetString("added-data-files").value())));
  EXPECT_EQ(row.at("failed_data_files_count"), Value(0));
  // Both delete files applied only to rewritten files.
  EXPECT_EQ(summary->GetString("removed-delete-files").value(), "2");
  EXPECT_GT(row.at("rewritten_data_files_count").get<int64_t>(),
            row.at("added_data_files_count").get<int64_t>());

  // Positional arguments and a filter that matches nothing rewrite nothing.
  const auto none = Call(
      "CALL floe.system.rewrite_data_files('t', 'binpack', NULL, "
      "map('min-input-files', '2'), 'id > 1000 AND category = ''zzz''')");
  EXPECT_EQ(none.at("rewritten_data_files_count"), Value(0));
  EXPECT_EQ(AsLong(*MetadataJson().Find("current-snapshot-id")), current);
}

TEST_F(CallTest, ExpireSnapshotsDeletesExactlyTheUnreachableFiles) {
  if (!floe::testing::PeerInstalled("avsc")) GTEST_SKIP() << "avro-cat (avsc) not installed";
  // Compaction first, so that the expired snapshots own files no kept snapshot needs; without
  // the branch, which would keep the pre-compaction snapshot.
  FLOE_ASSERT_OK(history_.table->NewManageSnapshots()->RemoveBranch("audit").Commit());
  Call("CALL system.rewrite_data_files(table => 't', options => MAP['rewrite-all', 'true'])");
  const Json before = MetadataJson();
  const std::filesystem::path location = before.GetString("location").value();
  const std::set<std::string> on_disk = FilesUnder(location);

  // Every manifest list and manifest as avro-cat reads them before the expiry deletes some.
  std::map<std::string, std::vector<Json>> avro;
  for (const Json& s : before.Find("snapshots")->as_array()) {
    const std::string list = s.GetString("manifest-list").value();
    avro[list] = AvroCat(list);
    for (const Json& m : avro[list]) {
      const std::string path = m.GetString("manifest_path").value();
      if (!avro.contains(path)) avro[path] = AvroCat(path);
    }
  }

  const auto row = Call(
      "CALL system.expire_snapshots(table => 'default.t', "
      "older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)");
  const Json after = MetadataJson();
  std::set<int64_t> kept;
  for (const Json& s : after.Find("snapshots")->as_array())
    kept.insert(AsLong(*s.Find("snapshot-id")));
  // The tag "v1" retains its snapshot; main keeps only its newest.
  EXPECT_TRUE(kept.contains(history_.snapshots.front()));
  EXPECT_EQ(kept.size(), 2U);
  EXPECT_LT(kept.size(), before.Find("snapshots")->as_array().size());

  // What the kept snapshots reach, and what only the expired ones did.
  std::set<std::string> kept_lists, kept_manifests, kept_live;
  std::map<std::string, int64_t> content;  // file -> content
  auto manifests_of = [&](const Json& snapshot) {
    return avro[snapshot.GetString("manifest-list").value()];
  };
  for (const Json& s : before.Find("snapshots")->as_array()) {
    if (!kept.contains(AsLong(*s.Find("snapshot-id")))) continue;
    kept_lists.insert(s.GetString("manifest-list").value());
    for (const Json& m : manifests_of(s)) {
      kept_manifests.insert(m.GetString("manifest_path").value());
      for (const Json& e : avro[m.GetString("manifest_path").value()]) {
        if (e.Find("status")->as_int() != 2) {
          kept_live.insert(e.Find("data_file")->GetString("file_path").value());
        }
      }
    }
  }
  std::set<std::string> expected;
  int64_t data = 0, positions = 0, equalities = 0, manifests = 0, lists = 0;
  for (const Json& s : before.Find("snapshots")->as_array()) {
    if (kept.contains(AsLong(*s.Find("snapshot-id")))) continue;
    const std::string list = s.GetString("manifest-list").value();
    if (!kept_lists.contains(list) && expected.insert(list).second) ++lists;
    for (const Json& m : manifests_of(s)) {
      const std::string path = m.GetString("manifest_path").value();
      if (kept_manifests.contains(path)) continue;
      if (expected.insert(path).second) ++manifests;
      for (const Json& e : avro[path]) {
        const Json& file = *e.Find("data_file");
        const std::string file_path = file.GetString("file_path").value();
        if (kept_live.contains(file_path) || !expected.insert(file_path).second) continue;
        switch (file.Find("content")->as_int()) {
          case 0:
            ++data;
            break;
          case 1:
            ++positions;
            break;
          default:
            ++equalities;
        }
      }
    }
  }
  ASSERT_GT(data, 0);
  const std::set<std::string> remaining = FilesUnder(location);
  std::set<std::string> removed;
  std::ranges::set_difference(on_disk, remaining, std::inserter(removed, removed.begin()));
  EXPECT_EQ(removed, expected);
  EXPECT_EQ(row.at("deleted_data_files_count"), Value(data));
  EXPECT_EQ(row.at("deleted_position_delete_files_count"), Value(positions));
  EXPECT_EQ(row.at("deleted_equality_delete_files_count"), Value(equalities));
  EXPECT_EQ(row.at("deleted_manifest_files_count"), Value(manifests));
  EXPECT_EQ(row.at("deleted_manifest_lists_count"), Value(lists));
  EXPECT_EQ(row.at("deleted_statistics_files_count"), Value(0));
}

TEST_F(CallTest, ExpireSnapshotsByIdTakesAnArray) {
  // Snapshot 2 is referenced by no ref and is not the current one.
  const int64_t id = history_.snapshots[1];
  Call("CALL system.expire_snapshots(table => 't', snapshot_ids => ARRAY[" + std::to_string(id) +
       "])");
  std::set<int64_t> kept;
  const Json after = MetadataJson();
  for (const Json& s : after.Find("snapshots")->as_array()) {
    kept.insert(AsLong(*s.Find("snapshot-id")));
  }
  EXPECT_FALSE(kept.contains(id));
  EXPECT_EQ(kept.size(), history_.snapshots.size() - 1);
}

TEST_F(CallTest, RollbackAndSetCurrentSnapshotMoveTheCurrentSnapshot) {
  const int64_t last = history_.snapshots.back();
  const int64_t target = history_.snapshots[1];
  auto row = Call("CALL system.rollback_to_snapshot('default.t', " + std::to_string(target) + ")");
  EXPECT_EQ(row.at("previous_snapshot_id"), Value(last));
  EXPECT_EQ(row.at("current_snapshot_id"), Value(target));
  EXPECT_EQ(AsLong(*MetadataJson().Find("current-snapshot-id")), target);

  row = Call("CALL system.set_current_snapshot(table => 't', ref => 'audit')");
  EXPECT_EQ(row.at("previous_snapshot_id"), Value(target));
  EXPECT_EQ(row.at("current_snapshot_id"), Value(last));
  EXPECT_EQ(AsLong(*MetadataJson().Find("current-snapshot-id")), last);

  row = Call("CALL system.set_current_snapshot(table => 't', snapshot_id => " +
             std::to_string(history_.snapshots[0]) + ")");
  EXPECT_EQ(AsLong(*MetadataJson().Find("current-snapshot-id")), history_.snapshots[0]);
  // Rolling back needs an ancestor of the current snapshot: `last` no longer is one.
  EXPECT_NE(Error("CALL system.rollback_to_snapshot('t', " + std::to_string(last) + ")"), "");
  EXPECT_EQ(AsLong(*MetadataJson().Find("current-snapshot-id")), history_.snapshots[0]);
}

// rewrite_manifests: the current snapshot's manifest list and manifests as avro-cat reads them,
// before and after. The data manifests become one a spec, holding the same live files,
// the delete manifests stay, the counts returned are those of the lists, and the rows read stay.
TEST_F(CallTest, RewriteManifestsPacksTheDataManifestsKeepingEveryFile) {
  if (!floe::testing::PeerInstalled("avsc")) GTEST_SKIP() << "avro-cat (avsc) not installed";
  struct Listed {
    std::set<std::string> data_manifests, delete_manifests, live_data_files;
  };
  auto listed = [&] {
    Listed out;
    const Json json = MetadataJson();
    const int64_t current = AsLong(*json.Find("current-snapshot-id"));
    for (const Json& s : json.Find("snapshots")->as_array()) {
      if (AsLong(*s.Find("snapshot-id")) != current) continue;
      for (const Json& m : AvroCat(s.GetString("manifest-list").value())) {
        const std::string path = m.GetString("manifest_path").value();
        if (AsLong(*m.Find("content")) != 0) {
          out.delete_manifests.insert(path);
          continue;
        }
        out.data_manifests.insert(path);
        for (const Json& entry : AvroCat(path)) {
          if (AsLong(*entry.Find("status")) == 2) continue;  // DELETED
          out.live_data_files.insert(entry.Find("data_file")->GetString("file_path").value());
        }
      }
    }
    return out;
  };
  auto count_rows = [&] {
    auto result = session_->ExecuteSql("SELECT count(*) AS n, sum(id) AS s FROM t");
    EXPECT_TRUE(result) << result.error().ToString();
    auto batch = result->rows->Next();
    return std::pair{GetValue((*batch)->column(0), 0), GetValue((*batch)->column(1), 0)};
  };
  const Listed before = listed();
  ASSERT_GT(before.data_manifests.size(), 1u);
  const auto rows = count_rows();

  const auto row = Call("CALL system.rewrite_manifests('t')");
  EXPECT_EQ(row.at("rewritten_manifests_count"),
            Value(static_cast<int64_t>(before.data_manifests.size())));
  // One manifest a partition spec (the table's spec evolved once).
  EXPECT_EQ(row.at("added_manifests_count"), Value(int64_t{2}));
  const Listed after = listed();
  EXPECT_EQ(after.data_manifests.size(), 2u);
  for (const std::string& manifest : after.data_manifests) {
    EXPECT_FALSE(before.data_manifests.contains(manifest)) << manifest;
  }
  EXPECT_EQ(after.delete_manifests, before.delete_manifests);
  EXPECT_EQ(after.live_data_files, before.live_data_files);
  EXPECT_EQ(count_rows(), rows);

  EXPECT_NE(Error("CALL system.rewrite_manifests(table => 't', spec_id => 9)")
                .find("rewrite_manifests: table 't' has no partition spec 9"),
            std::string::npos);
}

// remove_orphan_files: files planted in the table's folders, some older than the cut-off and
// one recent, beside the table's own files, all of which are made old too. The orphans found and
// deleted are exactly the old planted ones (checked on disk); every file the table had stays, and
// the table reads the same rows. A cut-off in the future takes the recent one as well, and still
// nothing of the table's.
TEST_F(CallTest, RemoveOrphanFilesDeletesOnlyOldUnreachableFiles) {
  using std::chrono_literals::operator""h;
  const std::filesystem::path location = MetadataJson().GetString("location").value();
  const std::set<std::string> table_files = FilesUnder(location);
  const auto old_time = std::filesystem::file_time_type::clock::now() - 240h;
  for (const std::string& file : table_files) std::filesystem::last_write_time(file, old_time);
  auto plant = [&](const std::filesystem::path& path, bool old) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << "left by a writer that died";
    if (old) std::filesystem::last_write_time(path, old_time);
    return path.string();
  };
  const std::set<std::string> old_orphans = {
      plant(location / "data" / "orphan-1.parquet", true),
      plant(location / "data" / "category=zzz" / "orphan-2.parquet", true),
      plant(location / "metadata" / "orphan-manifest.avro", true)};
  const std::string recent = plant(location / "data" / "recent.parquet", false);
  auto count_rows = [&] {
    auto result = session_->ExecuteSql("SELECT count(*) AS n FROM t");
    EXPECT_TRUE(result) << result.error().ToString();
    auto batch = result->rows->Next();
    return GetValue((*batch)->column(0), 0);
  };
  const Value rows = count_rows();

  auto orphans_of = [&](const std::string& sql) {
    auto result = session_->ExecuteSql(sql);
    EXPECT_TRUE(result) << sql << ": " << result.error().ToString();
    std::set<std::string> out;
    if (!result) return out;
    while (true) {
      auto batch = result->rows->Next();
      if (!batch || !*batch) break;
      EXPECT_EQ((*batch)->field(0).name, "orphan_file_location");
      for (int64_t r = 0; r < (*batch)->num_rows(); ++r) {
        out.insert(GetValue((*batch)->column(0), r).get<std::string>());
      }
    }
    return out;
  };
  EXPECT_EQ(orphans_of("CALL system.remove_orphan_files(table => 't', dry_run => true)"),
            old_orphans);
  std::set<std::string> everything = table_files;
  everything.insert(old_orphans.begin(), old_orphans.end());
  everything.insert(recent);
  EXPECT_EQ(FilesUnder(location), everything);

  EXPECT_EQ(orphans_of("CALL system.remove_orphan_files('t')"), old_orphans);
  std::set<std::string> kept = table_files;
  kept.insert(recent);
  EXPECT_EQ(FilesUnder(location), kept);
  EXPECT_EQ(count_rows(), rows);

  EXPECT_EQ(orphans_of("CALL system.remove_orphan_files(table => 't', older_than => TIMESTAMP "
                       "'2999-01-01 00:00:00')"),
            std::set<std::string>{recent});
  EXPECT_EQ(FilesUnder(location), table_files);
  EXPECT_EQ(count_rows(), rows);
  EXPECT_NE(Error("CALL system.remove_orphan_files(table => 't', dry_run => 'yes')")
                .find("argument 'dry_run' must be a BOOLEAN"),
            std::string::npos);
}

TEST_F(CallTest, ErrorsNameWhatIsWrong) {
  EXPECT_NE(Error("CALL system.compact_everything('t')").find("compact_everything"),
            std::string::npos);
  EXPECT_NE(
      Error("CALL system.rollback_to_snapshot(table => 't', snapshot => 1)").find("'snapshot'"),
      std::string::npos);
  EXPECT_NE(Error("CALL system.rollback_to_snapshot(table => 't', snapshot_id => 'x')")
                .find("snapshot_id"),
            std::string::npos);
  EXPECT_NE(Error("CALL system.rollback_to_snapshot(table => 't')").find("snapshot_id"),
            std::string::npos);
  EXPECT_NE(Error("CALL system.expire_snapshots(table => 'nope')").find("nope"), std::string::npos);
  EXPECT_NE(Error("CALL system.rewrite_data_files(table => 't', options => MAP['speed', 'max'])")
                .find("speed"),
            std::string::npos);
  EXPECT_NE(Error("CALL system.set_current_snapshot(table => 't', ref => 'nope')").find("nope"),
            std::string::npos);
  EXPECT_NE(Error("CALL nocatalog.system.expire_snapshots('t')").find("nocatalog"),
            std::string::npos);
  EXPECT_NE(Error("CALL system.expire_snapshots('t', retain_last => 0, older_than => 1)")
                .find("retain_last"),
            std::string::npos);
}

TEST(CallParseTest, ArrayAndMapConstructorsRoundTrip) {
  auto statement = ParseStatement("CALL system.expire_snapshots('t', snapshot_ids => ARRAY[1, 2])");
  ASSERT_TRUE(statement) << statement.error().ToString();
  const std::string printed = PrintStatement(*statement);
  EXPECT_NE(printed.find("ARRAY[1, 2]"), std::string::npos) << printed;
  auto again = ParseStatement(printed);
  ASSERT_TRUE(again);
  EXPECT_EQ(PrintStatement(*again), printed);
  EXPECT_FALSE(ParseStatement("CALL system.expire_snapshots('t', snapshot_ids => ARRAY[1, 2)"));
}

}  // namespace
}  // namespace floe::sql
