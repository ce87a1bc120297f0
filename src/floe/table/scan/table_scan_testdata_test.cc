// Scan planning of the real tables under ../shared/testdata (DuckDB, Impala, Spark and PyIceberg
// writers; v1 to v3; partitioned, evolved, with position and equality deletes), checked against
// what their writers recorded in every snapshot's summary, and against avsc's independent decoding
// of the manifests.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/table/scan/table_scan.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"
#include "floe/util/thread_pool.h"

namespace floe::table {
namespace {

namespace fs = std::filesystem;
using floe::testing::TestDataDir;

// Every table folder (holding metadata/*.metadata.json) of the Iceberg writers in the corpus.
std::vector<fs::path> TableDirs() {
  std::vector<fs::path> out;
  for (const char* root : {"duckdb-iceberg", "impala", "polars"}) {
    fs::path base = TestDataDir() / root;
    if (!fs::exists(base)) continue;
    for (auto it = fs::recursive_directory_iterator(base); it != fs::recursive_directory_iterator();
         ++it) {
      if (!it->is_directory() || it->path().filename() != "metadata") continue;
      for (const auto& f : fs::directory_iterator(it->path())) {
        if (f.path().string().ends_with(".metadata.json")) {
          out.push_back(it->path().parent_path());
          break;
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Loaded {
  TableMetadataPtr metadata;
  std::shared_ptr<io::FileIO> io;
  LocationMapping mapping;
};

Result<Loaded> Load(const fs::path& dir) {
  Loaded t;
  t.io = std::make_shared<io::LocalFileIO>();
  FLOE_ASSIGN_OR_RETURN(std::string location, FindCurrentMetadataLocation(*t.io, dir.string()));
  FLOE_ASSIGN_OR_RETURN(t.metadata, ReadTableMetadata(*t.io, location));
  t.mapping = LocationMapping::ForTable(*t.metadata, dir.string());
  // A few corpus tables record a location their files do not lie under (a bucket, while the
  // manifest lists name a relative folder): map the folder the manifest lists name instead.
  for (const SnapshotPtr& s : t.metadata->snapshots()) {
    size_t at = s->manifest_list.rfind("/metadata/");
    if (at != std::string::npos && t.mapping.Apply(s->manifest_list) == s->manifest_list) {
      t.mapping = LocationMapping{s->manifest_list.substr(0, at), dir.string()};
    }
    break;
  }
  return t;
}

// Tables whose summaries disagree with their manifests on purpose: Impala's test authors added
// data and delete files to the manifests by hand (avsc shows 2 data and 5 delete files live while
// the summary says 1 and 1).
bool HandEdited(const fs::path& dir) { return dir.filename() == "iceberg_v2_null_delete_record"; }

std::optional<int64_t> SummaryLong(const Snapshot& s, const char* key) {
  auto it = s.summary.find(key);
  if (it == s.summary.end()) return std::nullopt;
  return std::stoll(it->second);
}

TEST(TestdataScanTest, EverySnapshotMatchesItsSummary) {
  std::vector<fs::path> dirs = TableDirs();
  ASSERT_GE(dirs.size(), 50u) << "testdata missing under " << TestDataDir();
  ThreadPool pool(2);
  int snapshots_checked = 0;
  int delete_counts_equal = 0;
  std::vector<std::string> not_loaded;
  int lists_absent = 0;
  for (const fs::path& dir : dirs) {
    SCOPED_TRACE(dir.string());
    if (HandEdited(dir)) continue;
    auto loaded = Load(dir);
    if (!loaded) {
      // Metadata the spec layer rejects is that layer's business (its own tests cover it).
      not_loaded.push_back(dir.filename().string() + ": " + loaded.error().ToString());
      continue;
    }
    for (const SnapshotPtr& snapshot : loaded->metadata->snapshots()) {
      SCOPED_TRACE("snapshot " + std::to_string(snapshot->snapshot_id));
      // The corpus keeps only some snapshots' manifest lists.
      if (!snapshot->manifest_list.empty() &&
          !fs::exists(loaded->mapping.Apply(snapshot->manifest_list))) {
        ++lists_absent;
        continue;
      }
      TableScan scan(loaded->metadata, loaded->io);
      scan.UseSnapshot(snapshot->snapshot_id)
          .WithLocationMapping(loaded->mapping)
          .WithThreadPool(&pool);
      auto tasks = scan.PlanFiles();
      if (!tasks) {
        ADD_FAILURE() << tasks.error().ToString();
        continue;
      }
      std::set<std::string> data_files;
      std::set<std::string> delete_files;
      int64_t records = 0;
      for (const FileScanTask& task : *tasks) {
        EXPECT_TRUE(data_files.insert(task.data_file->file_path).second)
            << "planned twice: " << task.data_file->file_path;
        records += task.data_file->record_count;
        EXPECT_EQ(task.data_file->file_path, loaded->mapping.Apply(task.RecordedPath()));
        for (const auto& d : task.deletes) delete_files.insert(d->file_path);
      }
      if (auto n = SummaryLong(*snapshot, "total-data-files")) {
        EXPECT_EQ(static_cast<int64_t>(data_files.size()), *n);
      }
      if (auto n = SummaryLong(*snapshot, "total-records")) {
        EXPECT_EQ(records, *n);
      }
      if (auto n = SummaryLong(*snapshot, "total-delete-files")) {
        // A delete file that applies to no live data file (e.g. after compaction) is not planned.
        EXPECT_LE(static_cast<int64_t>(delete_files.size()), *n);
        delete_counts_equal += static_cast<int64_t>(delete_files.size()) == *n;
      }
      ++snapshots_checked;
    }
  }
  EXPECT_GE(snapshots_checked, 100);
  std::cout << "checked " << snapshots_checked << " snapshots of " << dirs.size()
            << " tables; all delete files planned in " << delete_counts_equal << "; "
            << lists_absent << " manifest lists absent from the corpus; metadata not loaded:\n";
  for (const std::string& s : not_loaded) std::cout << "  " << s << "\n";
  EXPECT_LE(not_loaded.size(), 3u);
}

// avsc decodes the manifest list and manifests on its own; the live data and delete files it
// finds must be exactly the files planned (tables whose deletes all apply somewhere).
TEST(TestdataScanTest, PlannedFilesEqualAvscDecoding) {
  if (!floe::testing::PeerInstalled("avsc")) GTEST_SKIP() << "avsc peer not installed";
  const fs::path ice = TestDataDir() / "impala/testdata/data/iceberg_test/hadoop_catalog/ice";
  for (const char* name :
       {"iceberg_v2_delete_both_eq_and_pos", "iceberg_v2_delete_equality_partition_evolution",
        "iceberg_v2_partitioned_position_deletes", "iceberg_v2_delete_equality_partitioned"}) {
    SCOPED_TRACE(name);
    FLOE_ASSERT_OK_AND_ASSIGN(Loaded t, Load(ice / name));
    SnapshotPtr current = t.metadata->current_snapshot();
    ASSERT_NE(current, nullptr);
    auto cat = [&](const std::string& recorded) {
      auto out = floe::testing::RunPeer("avro-cat", {t.mapping.Apply(recorded)});
      EXPECT_TRUE(out.has_value()) << out.error().ToString();
      std::vector<Json> rows;
      std::istringstream lines(out ? *out : "");
      for (std::string line; std::getline(lines, line);) {
        if (!line.empty()) rows.push_back(*Json::Parse(line));
      }
      return rows;
    };
    std::set<std::string> want_data, want_deletes;
    for (const Json& m : cat(current->manifest_list)) {
      for (const Json& e : cat(m.Find("manifest_path")->as_string())) {
        if (e.Find("status")->as_int() == 2) continue;
        const Json& f = *e.Find("data_file");
        std::string path = t.mapping.Apply(f.Find("file_path")->as_string());
        (f.Find("content")->as_int() == 0 ? want_data : want_deletes).insert(path);
      }
    }
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto tasks, TableScan(t.metadata, t.io).WithLocationMapping(t.mapping).PlanFiles());
    std::set<std::string> got_data, got_deletes;
    for (const auto& task : tasks) {
      got_data.insert(task.data_file->file_path);
      for (const auto& d : task.deletes) got_deletes.insert(d->file_path);
    }
    EXPECT_EQ(got_data, want_data);
    // Delete files that apply to no live data file (e.g. an equality delete of the same commit as
    // the only data file it could touch) are live in manifests but not planned.
    for (const std::string& d : got_deletes) EXPECT_TRUE(want_deletes.contains(d)) << d;
    EXPECT_FALSE(got_deletes.empty());
  }
}

// ClickHouse reads the polars table (partitioned by day) on its own: per data file row counts
// must be the planned files' record counts.
TEST(TestdataScanTest, PolarsTableMatchesClickHouse) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  fs::path dir = TestDataDir() / "polars/py-polars/tests/unit/io/files/iceberg-table";
  FLOE_ASSERT_OK_AND_ASSIGN(Loaded t, Load(dir));
  FLOE_ASSERT_OK_AND_ASSIGN(
      std::string out,
      floe::testing::RunPeer("ch", {"SELECT _path, count() AS n FROM icebergLocal('" +
                                        fs::absolute(dir).string() + "') GROUP BY _path",
                                    "JSONEachRow"}));
  std::map<std::string, int64_t> want;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    FLOE_ASSERT_OK_AND_ASSIGN(Json row, Json::Parse(line));
    const Json* n = row.Find("n");
    int64_t count = n->is_int() ? n->as_int() : std::stoll(n->as_string());
    // Both sides canonical: the test data may be reached through a symbolic link.
    want[fs::weakly_canonical("/" + row.Find("_path")->as_string()).string()] = count;
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks,
                            TableScan(t.metadata, t.io).WithLocationMapping(t.mapping).PlanFiles());
  std::map<std::string, int64_t> got;
  for (const auto& task : tasks) {
    got[fs::weakly_canonical(task.data_file->file_path).string()] = task.data_file->record_count;
  }
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace floe::table
