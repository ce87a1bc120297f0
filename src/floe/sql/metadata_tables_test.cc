// The metadata tables of a table with appends, an overwrite, position and equality deletes, a
// spec change, a branch and a tag (table/actions/history_test_table.h), each checked against an
// independent source: the metadata JSON file (util/json.h), the manifest lists and manifests as
// avro-cat decodes them, and file sizes from the filesystem.

#include "floe/table/inspect/metadata_tables.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "floe/batch/value.h"
#include "floe/sql/session.h"
#include "floe/table/actions/history_test_table.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

using table::MetadataTable;
using table::MetadataTableSchema;
using table::ParseMetadataTable;
using table::ReadMetadataTable;
using Rows = std::vector<std::map<std::string, Value>>;

Rows ToRows(const std::vector<RecordBatch>& batches) {
  Rows out;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      std::map<std::string, Value> row;
      for (int c = 0; c < batch.num_columns(); ++c) {
        row[batch.field(c).name] = GetValue(batch.column(c), r);
      }
      out.push_back(std::move(row));
    }
  }
  return out;
}

int64_t AsLong(const Json& json) {
  return json.is_string() ? std::stoll(json.as_string()) : json.as_int();
}

// avro-cat's records (longs as strings, bytes as hex).
std::vector<Json> AvroCat(const std::string& path) {
  auto out = floe::testing::RunPeer("avro-cat", {path});
  EXPECT_TRUE(out) << out.error().ToString();
  std::vector<Json> records;
  if (!out) return records;
  std::istringstream lines(*out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    auto json = Json::Parse(line);
    EXPECT_TRUE(json) << line;
    if (json) records.push_back(std::move(*json));
  }
  return records;
}

std::vector<std::string> ColumnNames(const BatchSchema& schema) {
  std::vector<std::string> out;
  for (const Field& field : schema.fields()) out.push_back(field.name);
  return out;
}

class MetadataTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = std::make_unique<Session>(
        SessionOptions{.embedded_warehouse = (dir_.path() / "warehouse").string()});
    FLOE_ASSERT_OK(session_->Open());
    FLOE_ASSERT_OK_AND_ASSIGN(ResolvedName name, session_->ResolveTable(ObjectName{{"t"}}));
    FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, session_->IcebergCatalog(name));
    FLOE_ASSERT_OK_AND_ASSIGN(history_, table::test::MakeHistoryTable(catalog, name.ident()));
    table_ = history_.table;
    std::ifstream in(table_->metadata_location());
    std::stringstream text;
    text << in.rdbuf();
    FLOE_ASSERT_OK_AND_ASSIGN(json_, Json::Parse(text.str()));
    if (!floe::testing::PeerInstalled("avsc")) GTEST_SKIP() << "avro-cat (avsc) not installed";
  }

  Rows Read(MetadataTable which) {
    auto batches = ReadMetadataTable(*table_, which);
    EXPECT_TRUE(batches) << batches.error().ToString();
    if (!batches) return {};
    auto schema = MetadataTableSchema(*table_, which);
    EXPECT_TRUE(schema);
    for (const RecordBatch& batch : *batches) EXPECT_EQ(*batch.schema(), **schema);
    return ToRows(*batches);
  }

  const Json& Member(std::string_view key) const { return *json_.Find(key); }

  // avro-cat's entries of the live files in the manifests of one manifest list, with the spec id
  // of their manifest.
  std::vector<std::pair<Json, int64_t>> LiveEntries(const std::string& manifest_list,
                                                    std::set<std::string>* seen = nullptr) {
    std::vector<std::pair<Json, int64_t>> out;
    for (const Json& manifest : AvroCat(manifest_list)) {
      const std::string path = manifest.GetString("manifest_path").value();
      if (seen && !seen->insert(path).second) continue;
      const int64_t spec_id = manifest.Find("partition_spec_id")->as_int();
      for (const Json& entry : AvroCat(path)) {
        if (entry.Find("status")->as_int() != 2) out.emplace_back(entry, spec_id);
      }
    }
    return out;
  }

  std::string CurrentManifestList() const {
    const int64_t current = AsLong(Member("current-snapshot-id"));
    for (const Json& snapshot : Member("snapshots").as_array()) {
      if (AsLong(*snapshot.Find("snapshot-id")) == current) {
        return snapshot.GetString("manifest-list").value();
      }
    }
    return "";
  }

  floe::testing::TempDir dir_;
  std::unique_ptr<Session> session_;
  table::test::HistoryTable history_;
  std::shared_ptr<table::Table> table_;
  Json json_;
};

TEST_F(MetadataTablesTest, SnapshotsMatchTheMetadataFile) {
  const Rows rows = Read(MetadataTable::kSnapshots);
  const auto& snapshots = Member("snapshots").as_array();
  ASSERT_EQ(rows.size(), snapshots.size());
  ASSERT_EQ(rows.size(), 5U);  // 2 appends, overwrite, row delta, append (a spec change adds none)
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& s = snapshots[i];
    const auto& row = rows[i];
    EXPECT_EQ(row.at("snapshot_id"), Value(AsLong(*s.Find("snapshot-id"))));
    EXPECT_EQ(row.at("committed_at"), Value(TimestampValue{AsLong(*s.Find("timestamp-ms")) * 1000,
                                                           TimeUnit::kMicro, true}));
    const Json* parent = s.Find("parent-snapshot-id");
    EXPECT_EQ(row.at("parent_id"), parent ? Value(AsLong(*parent)) : Value());
    EXPECT_EQ(row.at("manifest_list"), Value(s.GetString("manifest-list").value()));
    const Json& summary = *s.Find("summary");
    EXPECT_EQ(row.at("operation"), Value(summary.GetString("operation").value()));
    const auto& map = row.at("summary").get<MapValue>().entries;
    ASSERT_EQ(map.size(), summary.as_object().size());
    for (const auto& [key, value] : map) {
      EXPECT_EQ(value, Value(summary.GetString(key.get<std::string>()).value()));
    }
  }
  EXPECT_EQ(rows[2].at("operation"), Value("overwrite"));
}

// Map subscripts in SQL over the summary column give the metadata file's summary values, and
// null for a key a summary does not have.
TEST_F(MetadataTablesTest, SummarySubscriptsMatchTheMetadataFile) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      StatementResult result,
      session_->ExecuteSql("SELECT snapshot_id, summary['added-records'], "
                           "summary['total-records'], summary['no-such-key'] FROM t$snapshots"));
  std::vector<RecordBatch> batches;
  while (true) {
    FLOE_ASSERT_OK_AND_ASSIGN(std::optional<RecordBatch> batch, result.rows->Next());
    if (!batch) break;
    batches.push_back(std::move(*batch));
  }
  const Rows rows = ToRows(batches);
  const auto& snapshots = Member("snapshots").as_array();
  ASSERT_EQ(rows.size(), snapshots.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& summary = *snapshots[i].Find("summary");
    EXPECT_EQ(rows[i].at("snapshot_id"), Value(AsLong(*snapshots[i].Find("snapshot-id"))));
    auto expected = [&](std::string_view key) {
      auto text = summary.GetString(key);
      return text.has_value() ? Value(*text) : Value();
    };
    EXPECT_EQ(rows[i].at("EXPR$1"), expected("added-records")) << i;
    EXPECT_EQ(rows[i].at("EXPR$2"), expected("total-records")) << i;
    EXPECT_TRUE(rows[i].at("EXPR$3").is_null());
  }
}

TEST_F(MetadataTablesTest, HistoryFollowsTheSnapshotLog) {
  // Roll back so that one logged snapshot is no longer an ancestor of the current one.
  FLOE_ASSERT_OK(table_->NewManageSnapshots()->RollbackTo(history_.snapshots[3]).Commit());
  std::ifstream in(table_->metadata_location());
  std::stringstream text;
  text << in.rdbuf();
  FLOE_ASSERT_OK_AND_ASSIGN(json_, Json::Parse(text.str()));

  const Rows rows = Read(MetadataTable::kHistory);
  const auto& log = Member("snapshot-log").as_array();
  ASSERT_EQ(rows.size(), log.size());
  std::map<int64_t, std::optional<int64_t>> parents;
  for (const Json& s : Member("snapshots").as_array()) {
    const Json* parent = s.Find("parent-snapshot-id");
    parents[AsLong(*s.Find("snapshot-id"))] =
        parent ? std::optional<int64_t>(AsLong(*parent)) : std::nullopt;
  }
  std::set<int64_t> ancestors;
  for (std::optional<int64_t> id = AsLong(Member("current-snapshot-id")); id; id = parents[*id]) {
    ancestors.insert(*id);
  }
  int not_ancestors = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const int64_t id = AsLong(*log[i].Find("snapshot-id"));
    EXPECT_EQ(rows[i].at("snapshot_id"), Value(id));
    EXPECT_EQ(
        rows[i].at("made_current_at"),
        Value(TimestampValue{AsLong(*log[i].Find("timestamp-ms")) * 1000, TimeUnit::kMicro, true}));
    EXPECT_EQ(rows[i].at("parent_id"), parents[id] ? Value(*parents[id]) : Value());
    EXPECT_EQ(rows[i].at("is_current_ancestor"), Value(ancestors.contains(id)));
    not_ancestors += ancestors.contains(id) ? 0 : 1;
  }
  EXPECT_EQ(not_ancestors, 1);
}

TEST_F(MetadataTablesTest, FilesMatchTheManifestsAndTheFilesystem) {
  const Rows rows = Read(MetadataTable::kFiles);
  const auto entries = LiveEntries(CurrentManifestList());
  ASSERT_EQ(rows.size(), entries.size());
  ASSERT_FALSE(rows.empty());
  std::map<int64_t, int> by_content;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const Json& file = *entries[i].first.Find("data_file");
    const std::string path = file.GetString("file_path").value();
    EXPECT_EQ(row.at("file_path"), Value(path));
    EXPECT_EQ(row.at("content"), Value(file.Find("content")->as_int()));
    by_content[file.Find("content")->as_int()] += 1;
    EXPECT_EQ(row.at("spec_id"), Value(entries[i].second));
    EXPECT_EQ(row.at("record_count"), Value(AsLong(*file.Find("record_count"))));
    EXPECT_EQ(row.at("file_size_in_bytes"), Value(AsLong(*file.Find("file_size_in_bytes"))));
    EXPECT_EQ(row.at("file_size_in_bytes"),
              Value(static_cast<int64_t>(std::filesystem::file_size(path))));
    // Partition values by name: category in every spec, id_bucket only in spec 1.
    const auto& partition = row.at("partition").get<StructValue>().fields;
    ASSERT_EQ(partition.size(), 2U);
    EXPECT_EQ(partition[0].first, "category");
    EXPECT_EQ(partition[1].first, "id_bucket_4");
    const Json& written = *file.Find("partition");
    EXPECT_EQ(partition[0].second, Value(written.GetString("category").value()));
    const Json* bucket = written.Find("id_bucket_4");
    EXPECT_EQ(partition[1].second, bucket ? Value(bucket->as_int()) : Value());
    const Json* equality = file.Find("equality_ids");
    if (equality && !equality->is_null()) {
      ListValue ids;
      for (const Json& id : equality->as_array()) ids.elements.emplace_back(id.as_int());
      EXPECT_EQ(row.at("equality_ids"), Value(ids));
    } else {
      EXPECT_TRUE(row.at("equality_ids").is_null());
    }
    // Bounds as written (avro-cat prints the bytes in hex).
    for (const Json& bound : file.Find("lower_bounds")->as_array()) {
      const int64_t key = bound.Find("key")->as_int();
      std::string hex;
      for (const auto& [k, v] : row.at("lower_bounds").get<MapValue>().entries) {
        if (k == Value(key)) {
          for (unsigned char c : v.get<BinaryValue>().bytes) hex += fmt::format("{:02x}", c);
        }
      }
      EXPECT_EQ(hex, bound.GetString("value").value()) << "field " << key;
    }
  }
  EXPECT_EQ(by_content[1], 1);
  EXPECT_EQ(by_content[2], 1);
  EXPECT_EQ(Read(MetadataTable::kDataFiles).size(), static_cast<size_t>(by_content[0]));
  EXPECT_EQ(Read(MetadataTable::kDeleteFiles).size(), 2U);
}

TEST_F(MetadataTablesTest, AllDataFilesHoldEveryLiveFileOfEveryManifest) {
  std::set<std::string> seen;
  std::multiset<std::string> expected;
  for (const Json& snapshot : Member("snapshots").as_array()) {
    for (const auto& [entry, spec] :
         LiveEntries(snapshot.GetString("manifest-list").value(), &seen)) {
      const Json& file = *entry.Find("data_file");
      if (file.Find("content")->as_int() == 0) expected.insert(file.GetString("file_path").value());
    }
  }
  std::multiset<std::string> got;
  for (const auto& row : Read(MetadataTable::kAllDataFiles)) {
    got.insert(row.at("file_path").get<std::string>());
  }
  EXPECT_EQ(got, expected);
  // The category-a file the overwrite replaced is still in an older manifest.
  EXPECT_GT(got.size(), Read(MetadataTable::kDataFiles).size());
}

TEST_F(MetadataTablesTest, ManifestsMatchTheManifestList) {
  const Rows rows = Read(MetadataTable::kManifests);
  const auto list = AvroCat(CurrentManifestList());
  ASSERT_EQ(rows.size(), list.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& m = list[i];
    const auto& row = rows[i];
    const std::string path = m.GetString("manifest_path").value();
    EXPECT_EQ(row.at("path"), Value(path));
    EXPECT_EQ(row.at("length"), Value(AsLong(*m.Find("manifest_length"))));
    EXPECT_EQ(row.at("length"), Value(static_cast<int64_t>(std::filesystem::file_size(path))));
    EXPECT_EQ(row.at("partition_spec_id"), Value(m.Find("partition_spec_id")->as_int()));
    EXPECT_EQ(row.at("added_snapshot_id"), Value(AsLong(*m.Find("added_snapshot_id"))));
    const bool data = m.Find("content")->as_int() == 0;
    EXPECT_EQ(row.at("content"), Value(m.Find("content")->as_int()));
    EXPECT_EQ(row.at(data ? "added_data_files_count" : "added_delete_files_count"),
              Value(m.Find("added_files_count")->as_int()));
    EXPECT_EQ(row.at(data ? "existing_data_files_count" : "existing_delete_files_count"),
              Value(m.Find("existing_files_count")->as_int()));
    EXPECT_EQ(row.at(data ? "deleted_data_files_count" : "deleted_delete_files_count"),
              Value(m.Find("deleted_files_count")->as_int()));
    EXPECT_EQ(row.at(data ? "added_delete_files_count" : "added_data_files_count"), Value(0));
    const auto& summaries = row.at("partition_summaries").get<ListValue>().elements;
    const auto& written = m.Find("partitions")->as_array();
    ASSERT_EQ(summaries.size(), written.size());
    for (size_t f = 0; f < summaries.size(); ++f) {
      const auto& fields = summaries[f].get<StructValue>().fields;
      EXPECT_EQ(fields[0].second, Value(written[f].Find("contains_null")->as_bool()));
    }
  }
  // Identity partition bounds are the values themselves: the category manifests hold a or b.
  for (const auto& row : rows) {
    const auto& summaries = row.at("partition_summaries").get<ListValue>().elements;
    ASSERT_FALSE(summaries.empty());
    const auto& lower = summaries[0].get<StructValue>().fields[2].second;
    EXPECT_TRUE(lower == Value("a") || lower == Value("b")) << lower.ToJson();
  }
}

TEST_F(MetadataTablesTest, AllManifestsListEachSnapshotsManifests) {
  std::vector<std::pair<std::string, int64_t>> expected;
  for (const Json& snapshot : Member("snapshots").as_array()) {
    for (const Json& m : AvroCat(snapshot.GetString("manifest-list").value())) {
      expected.emplace_back(m.GetString("manifest_path").value(),
                            AsLong(*snapshot.Find("snapshot-id")));
    }
  }
  std::vector<std::pair<std::string, int64_t>> got;
  for (const auto& row : Read(MetadataTable::kAllManifests)) {
    got.emplace_back(row.at("path").get<std::string>(),
                     row.at("reference_snapshot_id").get<int64_t>());
  }
  EXPECT_EQ(got, expected);
}

TEST_F(MetadataTablesTest, PartitionsSumTheLiveFilesOfEachPartition) {
  struct Sums {
    int64_t records = 0, files = 0, bytes = 0, pos_records = 0, pos_files = 0, eq_records = 0,
            eq_files = 0;
  };
  std::map<std::string, Sums> expected;  // by "category/bucket"
  for (const auto& [entry, spec] : LiveEntries(CurrentManifestList())) {
    const Json& file = *entry.Find("data_file");
    const Json& partition = *file.Find("partition");
    const Json* bucket = partition.Find("id_bucket_4");
    Sums& s = expected[partition.GetString("category").value() + "/" +
                       (bucket ? std::to_string(bucket->as_int()) : "null")];
    const int64_t records = AsLong(*file.Find("record_count"));
    switch (file.Find("content")->as_int()) {
      case 0:
        s.records += records;
        s.files += 1;
        s.bytes += AsLong(*file.Find("file_size_in_bytes"));
        break;
      case 1:
        s.pos_records += records;
        s.pos_files += 1;
        break;
      default:
        s.eq_records += records;
        s.eq_files += 1;
    }
  }
  const Rows rows = Read(MetadataTable::kPartitions);
  ASSERT_EQ(rows.size(), expected.size());
  for (const auto& row : rows) {
    const auto& partition = row.at("partition").get<StructValue>().fields;
    const std::string key =
        partition[0].second.get<std::string>() + "/" +
        (partition[1].second.is_null() ? "null"
                                       : std::to_string(partition[1].second.get<int64_t>()));
    ASSERT_TRUE(expected.contains(key)) << key;
    const Sums& s = expected[key];
    EXPECT_EQ(row.at("record_count"), Value(s.records)) << key;
    EXPECT_EQ(row.at("file_count"), Value(s.files)) << key;
    EXPECT_EQ(row.at("total_data_file_size_in_bytes"), Value(s.bytes)) << key;
    EXPECT_EQ(row.at("position_delete_record_count"), Value(s.pos_records)) << key;
    EXPECT_EQ(row.at("position_delete_file_count"), Value(s.pos_files)) << key;
    EXPECT_EQ(row.at("equality_delete_record_count"), Value(s.eq_records)) << key;
    EXPECT_EQ(row.at("equality_delete_file_count"), Value(s.eq_files)) << key;
    EXPECT_FALSE(row.at("last_updated_snapshot_id").is_null());
  }
}

TEST_F(MetadataTablesTest, RefsMatchTheMetadataFile) {
  const Rows rows = Read(MetadataTable::kRefs);
  const auto& refs = Member("refs").as_object();
  ASSERT_EQ(rows.size(), refs.size());
  ASSERT_EQ(rows.size(), 3U);  // main, audit, v1
  for (const auto& row : rows) {
    const std::string name = row.at("name").get<std::string>();
    const Json* ref = Member("refs").Find(name);
    ASSERT_NE(ref, nullptr) << name;
    EXPECT_EQ(row.at("snapshot_id"), Value(AsLong(*ref->Find("snapshot-id"))));
    std::string type = ref->GetString("type").value();
    std::ranges::transform(type, type.begin(), [](unsigned char c) { return std::toupper(c); });
    EXPECT_EQ(row.at("type"), Value(type));
  }
}

TEST_F(MetadataTablesTest, MetadataLogEntriesEndWithTheCurrentFile) {
  const Rows rows = Read(MetadataTable::kMetadataLogEntries);
  const auto& log = Member("metadata-log").as_array();
  ASSERT_EQ(rows.size(), log.size() + 1);
  for (size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(rows[i].at("file"), Value(log[i].GetString("metadata-file").value()));
    EXPECT_EQ(
        rows[i].at("timestamp"),
        Value(TimestampValue{AsLong(*log[i].Find("timestamp-ms")) * 1000, TimeUnit::kMicro, true}));
  }
  EXPECT_EQ(rows.back().at("file"), Value(table_->metadata_location()));
  EXPECT_EQ(rows.back().at("latest_snapshot_id"), Value(AsLong(Member("current-snapshot-id"))));
  EXPECT_EQ(rows.back().at("latest_sequence_number"),
            Value(AsLong(Member("last-sequence-number"))));
  // The first metadata file is from before any snapshot.
  EXPECT_TRUE(rows.front().at("latest_snapshot_id").is_null());
}

TEST_F(MetadataTablesTest, ColumnsAreThoseOfTheReferenceImplementation) {
  auto names = [&](MetadataTable which) {
    return ColumnNames(**MetadataTableSchema(*table_, which));
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(names(MetadataTable::kSnapshots), (V{"committed_at", "snapshot_id", "parent_id",
                                                 "operation", "manifest_list", "summary"}));
  EXPECT_EQ(names(MetadataTable::kHistory),
            (V{"made_current_at", "snapshot_id", "parent_id", "is_current_ancestor"}));
  EXPECT_EQ(names(MetadataTable::kFiles),
            (V{"content", "file_path", "file_format", "spec_id", "partition", "record_count",
               "file_size_in_bytes", "column_sizes", "value_counts", "null_value_counts",
               "nan_value_counts", "lower_bounds", "upper_bounds", "key_metadata", "split_offsets",
               "equality_ids", "sort_order_id"}));
  EXPECT_EQ(names(MetadataTable::kRefs),
            (V{"name", "type", "snapshot_id", "max_reference_age_in_ms", "min_snapshots_to_keep",
               "max_snapshot_age_in_ms"}));
  EXPECT_EQ(names(MetadataTable::kAllManifests).back(), "reference_snapshot_id");
  auto committed = (*MetadataTableSchema(*table_, MetadataTable::kSnapshots))->field(0);
  EXPECT_EQ(committed.type->kind(), floe::TypeKind::kTimestamp);
  EXPECT_TRUE(committed.type->utc());  // TIMESTAMP_LTZ

  auto parsed = ParseMetadataTable("SNAPSHOTS");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(*parsed, MetadataTable::kSnapshots);
  auto unknown = ParseMetadataTable("snapshotz");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("snapshotz"), std::string::npos);
  EXPECT_NE(unknown.error().message().find("all_manifests"), std::string::npos);
}

}  // namespace
}  // namespace floe::sql
