// Position and equality delete files, and the delta writer's changelog outcomes, checked by
// reading the files with DuckDB and applying the deletes by hand (not with floe's reader).

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "floe/table/write/delta_writer.h"
#include "floe/table/write/equality_delete_writer.h"
#include "floe/table/write/position_delete_writer.h"
#include "floe/table/write/write_test_support.h"

namespace floe::table {
namespace {

using test::Duck;
using test::EventsTable;
using test::Int;
using test::Text;
using Row = EventsTable::Row;

TEST(PositionDeleteWriter, SortedByPathThenPosWithReservedIdsAndFullBounds) {
  EventsTable table;
  WriterContext context = table.Context();
  PositionDeleteWriter writer(context.DeleteOptions({}, nullptr, nullptr));
  const std::string a = table.location() + "/data/a-long-data-file-name.parquet";
  const std::string b = table.location() + "/data/b-long-data-file-name.parquet";
  std::set<std::pair<std::string, int64_t>> expected;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 5000; ++i) {
    const std::string& path = rng() % 2 ? a : b;
    const int64_t pos = static_cast<int64_t>(rng() % 3000);
    writer.Delete(path, pos);
    expected.insert({path, pos});
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto files, writer.Close());
  ASSERT_EQ(files.size(), 1U);
  const manifest::DataFile& file = files[0];
  EXPECT_EQ(file.content, manifest::FileContent::kPositionDeletes);
  EXPECT_FALSE(file.sort_order_id.has_value());
  EXPECT_FALSE(file.referenced_data_file.has_value());
  EXPECT_EQ(file.record_count, static_cast<int64_t>(expected.size()));
  EXPECT_NE(file.file_path.find("-deletes.parquet"), std::string::npos);
  auto rows = Duck("SELECT file_path, pos FROM read_parquet('" + file.file_path + "')");
  if (!rows) GTEST_SKIP() << "peers not installed: " << rows.error().ToString();
  ASSERT_EQ(rows->size(), expected.size());
  auto it = expected.begin();
  for (const Json& row : *rows) {
    EXPECT_EQ(Text(row, "file_path"), it->first);
    EXPECT_EQ(Int(row, "pos"), it->second);
    ++it;
  }
  auto ids = Duck("SELECT name, field_id FROM parquet_schema('" + file.file_path +
                  "') WHERE name IN ('file_path', 'pos') ORDER BY name");
  ASSERT_TRUE(ids.has_value());
  ASSERT_EQ(ids->size(), 2U);
  EXPECT_EQ(Int((*ids)[0], "field_id"), kDeleteFilePathFieldId);
  EXPECT_EQ(Int((*ids)[1], "field_id"), kDeletePosFieldId);
  // Paths are longer than 16 characters, yet bounds are whole (full metrics).
  EXPECT_EQ(*manifest::Find(file.lower_bounds, kDeleteFilePathFieldId), a);
  EXPECT_EQ(*manifest::Find(file.upper_bounds, kDeleteFilePathFieldId), b);

  PositionDeleteWriter single(context.DeleteOptions({}, nullptr, nullptr));
  single.Delete(a, 3);
  single.Delete(a, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(auto one, single.Close());
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0].referenced_data_file, a);
}

TEST(EqualityDeleteWriter, KeyRowsWithEqualityIds) {
  EventsTable table;
  WriterContext context = table.Context();
  auto key_schema = table.schema->Project({1});
  auto key_batch_schema =
      std::make_shared<const BatchSchema>(std::vector<Field>{table.batch_schema->field(0)});
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto writer, EqualityDeleteWriter::Make(
                       context.DeleteOptions({}, key_schema, key_batch_schema), {1}, std::nullopt));
  FLOE_ASSERT_OK_AND_ASSIGN(
      RecordBatch keys,
      table.Batch({{7, 0, "x", 1.0}, {9, 0, "y", 2.0}}).SelectColumns(std::vector<int>{0}));
  FLOE_ASSERT_OK(writer->Write(keys));
  FLOE_ASSERT_OK_AND_ASSIGN(auto files, writer->Close());
  ASSERT_EQ(files.size(), 1U);
  EXPECT_EQ(files[0].content, manifest::FileContent::kEqualityDeletes);
  EXPECT_EQ(files[0].equality_ids, std::vector<int32_t>{1});
  auto rows = Duck("SELECT * FROM read_parquet('" + files[0].file_path + "')");
  if (!rows) GTEST_SKIP() << "peers not installed: " << rows.error().ToString();
  ASSERT_EQ(rows->size(), 2U);
  EXPECT_EQ((*rows)[0].as_object().size(), 1U);
  EXPECT_EQ(Int((*rows)[1], "id"), 9);

  auto bad = EqualityDeleteWriter::Make(context.DeleteOptions({}, key_schema, key_batch_schema),
                                        {3}, std::nullopt);
  ASSERT_FALSE(bad.has_value());
  auto none = EqualityDeleteWriter::Make(context.DeleteOptions({}, key_schema, key_batch_schema),
                                         {}, std::nullopt);
  ASSERT_FALSE(none.has_value());
}

// The table after this commit, applying its deletes by hand to `before` (the rows of earlier
// commits, id -> category) and to the commit's own data files.
Result<std::map<int64_t, std::string>> ApplyByHand(const std::map<int64_t, std::string>& before,
                                                   const WriteResult& result) {
  std::vector<manifest::DataFile> positions, equalities;
  for (const auto& f : result.delete_files) {
    (f.content == manifest::FileContent::kPositionDeletes ? positions : equalities).push_back(f);
  }
  std::set<std::pair<std::string, int64_t>> deleted;
  if (!positions.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto rows, Duck("SELECT file_path, pos FROM read_parquet(" +
                                          test::PathList(positions) + ")"));
    for (const Json& r : rows) deleted.insert({Text(r, "file_path"), Int(r, "pos")});
  }
  std::map<int64_t, std::string> after = before;
  if (!equalities.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto rows, Duck("SELECT id FROM read_parquet(" +
                                          test::PathList(equalities) + ", union_by_name = true)"));
    for (const Json& r : rows) after.erase(Int(r, "id"));  // equality deletes hit older commits
  }
  if (!result.data_files.empty()) {
    FLOE_ASSIGN_OR_RETURN(
        auto rows,
        Duck("SELECT filename, file_row_number AS pos, id, category FROM "
             "read_parquet(" +
             test::PathList(result.data_files) + ", filename = true, file_row_number = true)"));
    for (const Json& r : rows) {
      if (deleted.contains({Text(r, "filename"), Int(r, "pos")})) continue;
      if (after.contains(Int(r, "id"))) return InternalError("id {} twice", Int(r, "id"));
      after[Int(r, "id")] = Text(r, "category");
    }
  }
  return after;
}

Row R(RowKind kind, int64_t id, std::string category) {
  return Row{id, 0, std::move(category), 1.0, kind};
}

TEST(DeltaWriter, UpsertKeepsTheLastRowOfEachKey) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, DeltaWriter::Make(table.Context(), {1}, true));
  FLOE_ASSERT_OK(
      writer->Write(table.Batch({R(RowKind::kInsert, 1, "a"), R(RowKind::kInsert, 3, "b"),
                                 R(RowKind::kUpdateAfter, 3, "c"), R(RowKind::kDelete, 2, "")},
                                true)));
  FLOE_ASSERT_OK(writer->Write(table.Batch(
      {R(RowKind::kInsert, 3, "d"), R(RowKind::kDelete, 1, ""), R(RowKind::kInsert, 4, "e")},
      true)));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  ASSERT_EQ(result.data_files.size(), 1U);
  EXPECT_EQ(result.data_files[0].record_count, 5);
  EXPECT_EQ(result.referenced_data_files, std::vector<std::string>{result.data_files[0].file_path});
  for (const auto& f : result.delete_files) {
    if (f.content == manifest::FileContent::kEqualityDeletes) {
      EXPECT_EQ(f.equality_ids, std::vector<int32_t>{1});
      // Keys for +I 1, +I 3 (first time), -D 2, +I 4: not inserted earlier in this commit.
      EXPECT_EQ(f.record_count, 4);
    } else {
      EXPECT_EQ(f.record_count, 3);  // 3:b, 3:c, 1:a
    }
  }
  auto after = ApplyByHand({{1, "old1"}, {2, "old2"}}, result);
  if (!after) GTEST_SKIP() << after.error().ToString();
  EXPECT_EQ(*after, (std::map<int64_t, std::string>{{3, "d"}, {4, "e"}}));
}

// A writer takes the next commit after Close, with its key table cleared: a key of the first
// commit is deleted by equality in the second (a position delete into the first commit's file
// would be wrong once that file is committed, and nothing of it may be referenced), and keys of
// the second commit by position.
TEST(DeltaWriter, NextCommitAfterCloseForgetsTheKeysOfTheLast) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, DeltaWriter::Make(table.Context(), {1}, true));
  FLOE_ASSERT_OK(
      writer->Write(table.Batch({R(RowKind::kInsert, 1, "a"), R(RowKind::kInsert, 2, "b")}, true)));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult first, writer->Close());
  FLOE_ASSERT_OK(writer->Write(table.Batch(
      {R(RowKind::kInsert, 1, "c"), R(RowKind::kInsert, 3, "d"), R(RowKind::kInsert, 3, "e")},
      true)));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult second, writer->Close());
  ASSERT_EQ(first.data_files.size(), 1U);
  ASSERT_EQ(second.data_files.size(), 1U);
  EXPECT_NE(first.data_files[0].file_path, second.data_files[0].file_path);
  EXPECT_EQ(second.referenced_data_files, std::vector<std::string>{second.data_files[0].file_path});
  int64_t equality_rows = 0, position_rows = 0;
  for (const auto& f : second.delete_files) {
    (f.content == manifest::FileContent::kEqualityDeletes ? equality_rows : position_rows) +=
        f.record_count;
  }
  EXPECT_EQ(equality_rows, 2);  // keys 1 and 3, not inserted earlier in the second commit
  EXPECT_EQ(position_rows, 1);  // 3:d
  auto after_first = ApplyByHand({}, first);
  if (!after_first) GTEST_SKIP() << after_first.error().ToString();
  auto after_second = ApplyByHand(*after_first, second);
  ASSERT_TRUE(after_second.has_value()) << after_second.error().ToString();
  EXPECT_EQ(*after_second, (std::map<int64_t, std::string>{{1, "c"}, {2, "b"}, {3, "e"}}));
}

// Three commits of upserts over 300 keys into a partitioned table with at most two partitions'
// files open: the key maps hold exactly the keys of the current commit whose last change is an
// insert (never those of earlier commits), and Close frees them all. The table after each commit,
// read by DuckDB with the deletes applied by hand, is the latest value of each key.
TEST(DeltaWriter, KeyMapsHoldOnlyTheCurrentCommitsKeys) {
  EventsTable table;
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{1}, 1000, "id_bucket", Transform::Bucket(4)}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, DeltaWriter::Make(table.Context(spec), {1}, true, 2));
  std::map<int64_t, std::string> model, committed;
  std::mt19937_64 rng(17);
  for (int commit = 0; commit < 3; ++commit) {
    SCOPED_TRACE(commit);
    std::map<int64_t, bool> last_is_insert;  // this commit's keys
    for (int batch = 0; batch < 4; ++batch) {
      std::vector<Row> rows;
      for (int i = 0; i < 100; ++i) {
        const int64_t id = static_cast<int64_t>(rng() % 300);
        if (rng() % 6 == 0) {
          rows.push_back(R(RowKind::kDelete, id, ""));
          model.erase(id);
          last_is_insert[id] = false;
        } else {
          std::string value = fmt::format("c{}b{}r{}", commit, batch, i);
          rows.push_back(R(RowKind::kInsert, id, value));
          model[id] = std::move(value);
          last_is_insert[id] = true;
        }
      }
      FLOE_ASSERT_OK(writer->Write(table.Batch(rows, true)));
      size_t expected_keys = 0;
      for (const auto& [id, inserted] : last_is_insert) expected_keys += inserted ? 1 : 0;
      EXPECT_EQ(writer->inserted_keys(), expected_keys);
      EXPECT_GT(writer->key_memory_bytes(), 0U);
    }
    FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
    EXPECT_EQ(writer->inserted_keys(), 0U);
    EXPECT_EQ(writer->key_memory_bytes(), 0U);
    auto after = ApplyByHand(committed, result);
    if (!after) GTEST_SKIP() << after.error().ToString();
    committed = std::move(*after);
    EXPECT_EQ(committed, model);
  }
}

TEST(DeltaWriter, ChangelogDeletesWholeRowsAndItsOwnInsertsByPosition) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, DeltaWriter::Make(table.Context(), {1}, false));
  FLOE_ASSERT_OK(writer->Write(table.Batch(
      {R(RowKind::kInsert, 3, "x"), R(RowKind::kUpdateBefore, 1, "old1"),
       R(RowKind::kUpdateAfter, 1, "new1"), R(RowKind::kDelete, 3, "x"),
       R(RowKind::kInsert, 5, "y"), R(RowKind::kDelete, 2, "old2"), R(RowKind::kInsert, 5, "z")},
      true)));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  int64_t equality_rows = 0, position_rows = 0;
  for (const auto& f : result.delete_files) {
    (f.content == manifest::FileContent::kEqualityDeletes ? equality_rows : position_rows) +=
        f.record_count;
  }
  EXPECT_EQ(equality_rows, 2);  // -U 1 and -D 2 (whole rows)
  EXPECT_EQ(position_rows, 2);  // -D 3 and the first +I 5
  for (const auto& f : result.delete_files) {
    if (f.content != manifest::FileContent::kEqualityDeletes) continue;
    auto rows = Duck("SELECT * FROM read_parquet('" + f.file_path + "') ORDER BY id");
    if (!rows) GTEST_SKIP() << "peers not installed: " << rows.error().ToString();
    ASSERT_EQ(rows->size(), 2U);
    EXPECT_EQ((*rows)[0].as_object().size(), 4U);  // whole rows
    EXPECT_EQ(Text((*rows)[0], "category"), "old1");
    EXPECT_EQ(Text((*rows)[1], "category"), "old2");
  }
  auto after = ApplyByHand({{1, "old1"}, {2, "old2"}}, result);
  ASSERT_TRUE(after.has_value()) << after.error().ToString();
  EXPECT_EQ(*after, (std::map<int64_t, std::string>{{1, "new1"}, {5, "z"}}));
}

TEST(DeltaWriter, PartitionedUpsertKeepsDeletesWithTheirPartition) {
  EventsTable table;
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{1}, 1000, "id_bucket", Transform::Bucket(2)}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, DeltaWriter::Make(table.Context(spec), {1}, true));
  std::vector<Row> rows;
  std::map<int64_t, std::string> model{{1, "old"}, {2, "old"}, {3, "old"}};
  std::mt19937_64 rng(9);
  for (int i = 0; i < 400; ++i) {
    const int64_t id = static_cast<int64_t>(rng() % 20);
    if (rng() % 4 == 0) {
      rows.push_back(R(RowKind::kDelete, id, ""));
      model.erase(id);
    } else {
      rows.push_back(R(RowKind::kInsert, id, fmt::format("v{}", i)));
      model[id] = fmt::format("v{}", i);
    }
  }
  for (size_t start = 0; start < rows.size(); start += 50) {
    FLOE_ASSERT_OK(writer->Write(
        table.Batch(std::vector<Row>(rows.begin() + start, rows.begin() + start + 50), true)));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  for (const auto& f : result.delete_files) {
    ASSERT_EQ(f.partition.size(), 1U);
    EXPECT_NE(f.file_path.find(fmt::format("/id_bucket={}/", f.partition[0].int_value())),
              std::string::npos);
  }
  auto after = ApplyByHand({{1, "old"}, {2, "old"}, {3, "old"}}, result);
  if (!after) GTEST_SKIP() << after.error().ToString();
  EXPECT_EQ(*after, model);

  auto spec_on_other = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{3}, 1000, "category", Transform::Identity()}});
  auto refused = DeltaWriter::Make(table.Context(spec_on_other), {1}, true);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument);
}

// With at most one or two partitions' files open, every batch closes files, also mid-batch (the
// batch's rows of the open partitions are written first): rows, updates of keys whose file was
// closed (position deletes into the closed file) and deletes still end as the latest value of
// each key, read back by DuckDB.
TEST(DeltaWriter, FewOpenFilesKeepTheLastRowOfEachKey) {
  for (size_t max_open : {size_t{1}, size_t{2}}) {
    SCOPED_TRACE(max_open);
    EventsTable table;
    auto spec = std::make_shared<const PartitionSpec>(
        0, std::vector<PartitionField>{{{1}, 1000, "id_bucket", Transform::Bucket(8)}});
    FLOE_ASSERT_OK_AND_ASSIGN(auto writer,
                              DeltaWriter::Make(table.Context(spec), {1}, true, max_open));
    std::vector<Row> rows;
    std::map<int64_t, std::string> model{{1, "old"}, {2, "old"}, {3, "old"}};
    std::mt19937_64 rng(11);
    for (int i = 0; i < 600; ++i) {
      const int64_t id = static_cast<int64_t>(rng() % 40);
      if (rng() % 5 == 0) {
        rows.push_back(R(RowKind::kDelete, id, ""));
        model.erase(id);
      } else {
        rows.push_back(R(RowKind::kInsert, id, fmt::format("v{}", i)));
        model[id] = fmt::format("v{}", i);
      }
    }
    for (size_t start = 0; start < rows.size(); start += 50) {
      FLOE_ASSERT_OK(writer->Write(
          table.Batch(std::vector<Row>(rows.begin() + start, rows.begin() + start + 50), true)));
    }
    FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
    // Eight partitions, reopened again and again.
    EXPECT_GT(result.data_files.size(), 16U);
    auto after = ApplyByHand({{1, "old"}, {2, "old"}, {3, "old"}}, result);
    if (!after) GTEST_SKIP() << after.error().ToString();
    EXPECT_EQ(*after, model);
  }
}

}  // namespace
}  // namespace floe::table
