#include "floe/batch/record_batch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

Array Int64s(std::vector<std::optional<int64_t>> values) {
  Int64Builder builder;
  for (auto v : values) {
    if (v) {
      builder.Append(*v);
    } else {
      builder.AppendNull();
    }
  }
  return *builder.Finish();
}

Array Strings(std::vector<std::string> values) {
  StringBuilder builder(DataType::String());
  for (const auto& v : values) builder.Append(v);
  return *builder.Finish();
}

BatchSchemaPtr TwoColumns(bool id_nullable = false) {
  return std::make_shared<BatchSchema>(std::vector<Field>{{"id", DataType::Int64(), id_nullable, 1},
                                                          {"name", DataType::String(), true, 2}});
}

Buffer Kinds(std::vector<RowKind> kinds) {
  return Buffer::CopyOf(kinds.data(), static_cast<int64_t>(kinds.size()));
}

TEST(RowKindTest, SymbolsRoundTrip) {
  for (RowKind kind :
       {RowKind::kInsert, RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete}) {
    FLOE_ASSERT_OK_AND_ASSIGN(RowKind parsed, ParseRowKind(RowKindSymbol(kind)));
    EXPECT_EQ(parsed, kind);
  }
  EXPECT_EQ(RowKindSymbol(RowKind::kUpdateBefore), "-U");
  EXPECT_EQ(RowKindSymbol(RowKind::kDelete), "-D");
  EXPECT_FALSE(ParseRowKind("+X").has_value());
}

TEST(RecordBatchTest, MakeChecksColumnsAgainstSchema) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      RecordBatch batch,
      RecordBatch::Make(TwoColumns(), {Int64s({1, 2, 3}), Strings({"a", "b", "c"})}));
  EXPECT_EQ(batch.num_rows(), 3);
  EXPECT_EQ(batch.num_columns(), 2);
  EXPECT_FALSE(batch.has_row_kinds());
  EXPECT_EQ(batch.row_kind(2), RowKind::kInsert);
  EXPECT_TRUE(batch.row_kinds().empty());
  ASSERT_NE(batch.GetColumnByName("name"), nullptr);
  EXPECT_EQ(batch.GetColumnByName("name")->GetString(1), "b");
  EXPECT_EQ(batch.GetColumnByName("nope"), nullptr);

  auto too_few = RecordBatch::Make(TwoColumns(), {Int64s({1})});
  ASSERT_FALSE(too_few.has_value());
  EXPECT_NE(too_few.error().message().find("1 columns for 2 fields"), std::string::npos);

  auto wrong_type = RecordBatch::Make(TwoColumns(), {Strings({"x"}), Strings({"a"})});
  ASSERT_FALSE(wrong_type.has_value());
  EXPECT_NE(wrong_type.error().message().find("column 0 (id) is string"), std::string::npos);

  auto wrong_length = RecordBatch::Make(TwoColumns(), {Int64s({1, 2}), Strings({"a"})});
  ASSERT_FALSE(wrong_length.has_value());
  EXPECT_NE(wrong_length.error().message().find("column 1 (name) has 1 rows, the batch 2"),
            std::string::npos);

  auto required_null =
      RecordBatch::Make(TwoColumns(), {Int64s({1, std::nullopt}), Strings({"a", "b"})});
  ASSERT_FALSE(required_null.has_value());
  EXPECT_NE(required_null.error().message().find("required but has 1 nulls"), std::string::npos);
  EXPECT_TRUE(RecordBatch::Make(TwoColumns(true), {Int64s({1, std::nullopt}), Strings({"a", "b"})})
                  .has_value());
}

TEST(RecordBatchTest, RowKindsAreCheckedAndSliced) {
  auto kinds =
      Kinds({RowKind::kInsert, RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete});
  FLOE_ASSERT_OK_AND_ASSIGN(
      RecordBatch batch,
      RecordBatch::Make(TwoColumns(), {Int64s({1, 2, 2, 3}), Strings({"a", "b", "B", "c"})}, 4,
                        kinds));
  EXPECT_TRUE(batch.has_row_kinds());
  EXPECT_EQ(batch.row_kind(1), RowKind::kUpdateBefore);
  RecordBatch tail = batch.Slice(2, 10);
  EXPECT_EQ(tail.num_rows(), 2);
  EXPECT_EQ(tail.row_kind(0), RowKind::kUpdateAfter);
  EXPECT_EQ(tail.row_kinds().size(), 2u);
  EXPECT_EQ(tail.row_kinds()[1], RowKind::kDelete);
  EXPECT_EQ(RowView(tail, 0).ToJson(), R"({"id":2,"name":"B"})");
  EXPECT_EQ(RowView(tail, 1).kind(), RowKind::kDelete);

  uint8_t bad[] = {0, 4, 0, 0};
  auto invalid = batch.WithRowKinds(Buffer::CopyOf(bad, 4));
  ASSERT_FALSE(invalid.has_value());
  EXPECT_NE(invalid.error().message().find("row 1: invalid row kind 4"), std::string::npos);
  EXPECT_FALSE(batch.WithRowKinds(Kinds({RowKind::kInsert})).has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch inserts, batch.WithRowKinds(std::nullopt));
  EXPECT_FALSE(inserts.has_row_kinds());
  EXPECT_EQ(inserts.row_kind(1), RowKind::kInsert);
}

TEST(RecordBatchTest, SlicesAndCopiesShareBuffers) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      RecordBatch batch,
      RecordBatch::Make(TwoColumns(), {Int64s({10, 20, 30, 40}), Strings({"a", "b", "c", "d"})}));
  RecordBatch copy = batch;
  EXPECT_EQ(copy.column(0).values().data(), batch.column(0).values().data());
  RecordBatch middle = batch.Slice(1, 2);
  EXPECT_EQ(middle.num_rows(), 2);
  EXPECT_EQ(middle.column(0).Value<int64_t>(0), 20);
  EXPECT_EQ(middle.column(1).GetString(1), "c");
  EXPECT_EQ(middle.column(0).values().data(), batch.column(0).values().data());
  EXPECT_EQ(batch.Slice(9, 1).num_rows(), 0);
  RecordBatch moved = std::move(copy);
  EXPECT_EQ(moved.num_rows(), 4);
  EXPECT_TRUE(BatchesEqual(moved, batch));
  EXPECT_FALSE(BatchesEqual(middle, batch));
  FLOE_ASSERT_OK_AND_ASSIGN(
      RecordBatch rebuilt,
      RecordBatch::Make(TwoColumns(), {Int64s({20, 30}), Strings({"b", "c"})}));
  EXPECT_TRUE(BatchesEqual(middle, rebuilt));
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch deletes,
                            rebuilt.WithRowKinds(Kinds({RowKind::kDelete, RowKind::kDelete})));
  EXPECT_FALSE(BatchesEqual(middle, deletes));
}

TEST(RecordBatchTest, SelectColumnsByIndexNameAndFieldId) {
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch,
                            RecordBatch::Make(TwoColumns(), {Int64s({1, 2}), Strings({"a", "b"})}));
  std::vector<int> order = {1, 0, 1};
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch picked, batch.SelectColumns(order));
  EXPECT_EQ(picked.num_columns(), 3);
  EXPECT_EQ(picked.field(0).name, "name");
  EXPECT_EQ(picked.field(1).field_id, 1);
  EXPECT_EQ(picked.num_rows(), 2);

  std::vector<std::string> names = {"name"};
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch by_name, batch.SelectColumnsByName(names));
  EXPECT_EQ(by_name.schema()->ToString(), "name: string id=2");

  std::vector<int32_t> ids = {1};
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch by_id, batch.SelectColumnsByFieldId(ids));
  EXPECT_EQ(by_id.column(0).Value<int64_t>(1), 2);

  std::vector<int> out_of_range = {2};
  EXPECT_FALSE(batch.SelectColumns(out_of_range).has_value());
  std::vector<std::string> unknown = {"zzz"};
  auto missing = batch.SelectColumnsByName(unknown);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  std::vector<int32_t> unknown_ids = {7};
  EXPECT_FALSE(batch.SelectColumnsByFieldId(unknown_ids).has_value());
}

}  // namespace
}  // namespace floe
