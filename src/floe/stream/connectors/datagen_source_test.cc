#include "floe/stream/connectors/datagen_source.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "floe/batch/value.h"
#include "floe/stream/connectors/source_test_driver.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

using testing::SourceDriver;
using testing::SourceSnapshot;

// The events shape of the benchmarks: a sequence id, then random columns of every kind.
BatchSchemaPtr EventsSchema() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64()},
      {"ts", DataType::Timestamp(TimeUnit::kMicro, false)},
      {"user", DataType::String()},
      {"kind", DataType::Int32()},
      {"amount", DataType::Float64()},
      {"flag", DataType::Bool()},
  });
}

std::map<std::string, std::string> EventsOptions(int64_t rows) {
  return {{"rows-per-second", "0"},
          {"number-of-rows", std::to_string(rows)},
          {"seed", "42"},
          {"batch-size", "100"},
          {"fields.id.kind", "sequence"},
          {"fields.id.start", "1000"},
          {"fields.id.end", "100000000"},
          {"fields.ts.min", "2024-01-01T00:00:00"},
          {"fields.ts.max", "2024-01-02T00:00:00"},
          {"fields.user.length", "8"},
          {"fields.kind.min", "-3"},
          {"fields.kind.max", "3"},
          {"fields.amount.min", "10"},
          {"fields.amount.max", "20"}};
}

// Row text by row index (id - 1000), from every batch collected; fails on a repeated index.
void CollectRows(const std::vector<RecordBatch>& batches, std::map<int64_t, std::string>& rows) {
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      int64_t index = batch.column(0).Value<int64_t>(r) - 1000;
      std::string text;
      for (int c = 0; c < batch.num_columns(); ++c) {
        AppendJson(batch.column(c), r, text);
        text.push_back('|');
      }
      EXPECT_TRUE(rows.emplace(index, std::move(text)).second) << "row " << index << " twice";
    }
  }
}

// Every row 0..count-1 exactly once, each equal to what GenerateRows computes for its index.
void ExpectExactlyTheRows(const DatagenSource& source, const std::map<int64_t, std::string>& rows,
                          int64_t count) {
  ASSERT_EQ(static_cast<int64_t>(rows.size()), count);
  std::vector<int64_t> indices(count);
  std::iota(indices.begin(), indices.end(), 0);
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch expected, source.GenerateRows(indices));
  std::map<int64_t, std::string> recomputed;
  CollectRows({expected}, recomputed);
  EXPECT_EQ(rows, recomputed);
}

TEST(DatagenSourceTest, ValuesStayInTheirRangesAndFollowTheSeed) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, DatagenSource::Make(EventsSchema(), EventsOptions(5000)));
  EXPECT_TRUE(source->bounded());
  std::vector<int64_t> indices(5000);
  std::iota(indices.begin(), indices.end(), 0);
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, source->GenerateRows(indices));
  std::set<int32_t> kinds;
  int64_t flags = 0;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    EXPECT_EQ(batch.column(0).Value<int64_t>(r), 1000 + r);
    // 2024-01-01 and 2024-01-02 at midnight, in microseconds since the epoch.
    int64_t ts = batch.column(1).Value<int64_t>(r);
    EXPECT_GE(ts, 1'704'067'200'000'000);
    EXPECT_LE(ts, 1'704'153'600'000'000);
    std::string_view user = batch.column(2).GetString(r);
    EXPECT_EQ(user.size(), 8u);
    int32_t kind = batch.column(3).Value<int32_t>(r);
    EXPECT_GE(kind, -3);
    EXPECT_LE(kind, 3);
    kinds.insert(kind);
    double amount = batch.column(4).Value<double>(r);
    EXPECT_GE(amount, 10.0);
    EXPECT_LE(amount, 20.0);
    flags += batch.column(5).GetBool(r) ? 1 : 0;
  }
  EXPECT_EQ(kinds.size(), 7u);  // both ends of the range are reached
  EXPECT_GT(flags, 2000);
  EXPECT_LT(flags, 3000);

  // The same seed gives the same rows (also in another order); another seed other rows.
  std::vector<int64_t> some{4999, 7, 7, 0};
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch again, source->GenerateRows(some));
  EXPECT_TRUE(BatchesEqual(again.Slice(1, 1), batch.Slice(7, 1)));
  EXPECT_TRUE(BatchesEqual(again.Slice(0, 1), batch.Slice(4999, 1)));
  auto options = EventsOptions(5000);
  options["seed"] = "43";
  FLOE_ASSERT_OK_AND_ASSIGN(auto other, DatagenSource::Make(EventsSchema(), options));
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch different, other->GenerateRows(some));
  EXPECT_FALSE(BatchesEqual(different, again));
}

// A TIMESTAMP(3) column gets whole milliseconds, a TIMESTAMP(0) whole seconds, within the range
// (its ends not multiples of the step), as Flink's datagen makes them from a millisecond clock.
TEST(DatagenSourceTest, TimestampsHaveTheirColumnsPrecision) {
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      {"ms", DataType::Timestamp(TimeUnit::kMicro, false, 3)},
      {"s", DataType::Timestamp(TimeUnit::kMicro, true, 0)},
  });
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            DatagenSource::Make(schema, {{"number-of-rows", "2000"},
                                                         {"fields.ms.min", "1704067200000001"},
                                                         {"fields.ms.max", "1704067200999999"},
                                                         {"fields.s.min", "1704067200000001"},
                                                         {"fields.s.max", "1704067210999999"}}));
  std::vector<int64_t> indices(2000);
  std::iota(indices.begin(), indices.end(), 0);
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, source->GenerateRows(indices));
  std::set<int64_t> seconds;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    int64_t ms = batch.column(0).Value<int64_t>(r);
    EXPECT_EQ(ms % 1000, 0);
    EXPECT_GE(ms, 1704067200001000);
    EXPECT_LE(ms, 1704067200999000);
    int64_t s = batch.column(1).Value<int64_t>(r);
    EXPECT_EQ(s % 1000000, 0);
    EXPECT_GE(s, 1704067201000000);
    EXPECT_LE(s, 1704067210000000);
    seconds.insert(s);
  }
  EXPECT_EQ(seconds.size(), 10u);  // every whole second of the range, its ends included
}

TEST(DatagenSourceTest, ReadersShareTheRowsByIndex) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, DatagenSource::Make(EventsSchema(), EventsOptions(1001)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 4));
  FLOE_ASSERT_OK(driver->RunToEnd());
  std::map<int64_t, std::string> rows;
  CollectRows(driver->output().batches(), rows);
  ExpectExactlyTheRows(*source, rows, 1001);
  for (const RecordBatch& batch : driver->output().batches()) {
    EXPECT_LE(batch.num_rows(), 100);
    // With 64 shares and 4 readers, a batch holds rows of one residue mod 4, ascending.
    int64_t first = batch.column(0).Value<int64_t>(0);
    for (int64_t r = 1; r < batch.num_rows(); ++r) {
      EXPECT_EQ(batch.column(0).Value<int64_t>(r), first + 4 * r);
    }
  }
}

// Snapshot in the middle, then restore into new readers with the same, fewer and more subtasks:
// what was emitted before the snapshot plus what the restored readers emit is every row once.
TEST(DatagenSourceTest, RestoreContinuesExactlyWithAnyParallelism) {
  for (int restored_parallelism : {3, 1, 2, 7, 80}) {
    SCOPED_TRACE(restored_parallelism);
    auto options = EventsOptions(20000);
    options["split-count"] = "12";
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, DatagenSource::Make(EventsSchema(), options));
    FLOE_ASSERT_OK_AND_ASSIGN(auto first, SourceDriver::Start(*source, 3));
    for (int i = 0; i < 17; ++i) FLOE_ASSERT_OK(first->Step());
    FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, first->Snapshot(1));
    std::map<int64_t, std::string> rows;
    CollectRows(first->output().batches(), rows);
    ASSERT_EQ(rows.size(), 17u * 3 * 100);
    // Emitted after the snapshot, then lost in a failure: generated again after the restore.
    for (int i = 0; i < 5; ++i) FLOE_ASSERT_OK(first->Step());

    FLOE_ASSERT_OK_AND_ASSIGN(auto second,
                              SourceDriver::Start(*source, restored_parallelism, &snapshot));
    for (int i = 0; i < 9; ++i) FLOE_ASSERT_OK(second->Step());
    // A second snapshot and restore, back to three readers.
    FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot again, second->Snapshot(2));
    CollectRows(second->output().batches(), rows);
    FLOE_ASSERT_OK_AND_ASSIGN(auto third, SourceDriver::Start(*source, 3, &again));
    FLOE_ASSERT_OK(third->RunToEnd());
    CollectRows(third->output().batches(), rows);
    ExpectExactlyTheRows(*source, rows, 20000);
  }
}

TEST(DatagenSourceTest, UnboundedSourceRestoresToo) {
  auto options = EventsOptions(0);
  options.erase("number-of-rows");
  options.erase("fields.id.kind");
  options.erase("fields.id.start");
  options.erase("fields.id.end");
  options["fields.id.min"] = "1000";
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, DatagenSource::Make(EventsSchema(), options));
  EXPECT_FALSE(source->bounded());
  FLOE_ASSERT_OK_AND_ASSIGN(auto first, SourceDriver::Start(*source, 2));
  for (int i = 0; i < 10; ++i) FLOE_ASSERT_OK(first->Step());
  FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, first->Snapshot(1));
  ASSERT_EQ(snapshot.readers.size(), 2u);
  EXPECT_EQ(snapshot.readers[0].size() + snapshot.readers[1].size(), 64u);
  FLOE_ASSERT_OK_AND_ASSIGN(auto second, SourceDriver::Start(*source, 5, &snapshot));
  for (int i = 0; i < 10; ++i) FLOE_ASSERT_OK(second->Step());
  // The ids are random here; the rows are recognised by recomputing the first indices.
  std::vector<int64_t> indices(64 * 200);
  std::iota(indices.begin(), indices.end(), 0);
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch expected, source->GenerateRows(indices));
  std::map<int64_t, int64_t> index_of_id;
  for (int64_t r = 0; r < expected.num_rows(); ++r) {
    index_of_id[expected.column(0).Value<int64_t>(r)] = r;
  }
  std::set<int64_t> seen;
  for (const auto* output : {&first->output(), &second->output()}) {
    int64_t taken = 0;
    for (const RecordBatch& batch : output->batches()) {
      // Only what the first driver emitted before its snapshot counts.
      if (output == &first->output() && taken >= 2000) break;
      taken += batch.num_rows();
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        auto it = index_of_id.find(batch.column(0).Value<int64_t>(r));
        ASSERT_NE(it, index_of_id.end());
        EXPECT_TRUE(seen.insert(it->second).second) << "row " << it->second << " twice";
      }
    }
  }
  EXPECT_EQ(seen.size(), 2000u + 5000u);
}

TEST(DatagenSourceTest, BadOptionsAreRefusedByName) {
  auto expect_refused = [](std::map<std::string, std::string> options, std::string_view text) {
    auto source = DatagenSource::Make(EventsSchema(), options);
    ASSERT_FALSE(source.has_value()) << text;
    EXPECT_EQ(source.error().kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(source.error().message().find(text), std::string::npos) << source.error().message();
  };
  auto with = [](std::string key, std::string value) {
    auto options = EventsOptions(10);
    options[key] = value;
    return options;
  };
  expect_refused(with("rows-per-secnd", "1"), "unknown option 'rows-per-secnd'");
  expect_refused(with("number-of-rows", "ten"), "'number-of-rows': 'ten' is not a number");
  expect_refused(with("fields.nope.kind", "random"), "no column 'nope'");
  expect_refused(with("fields.kind.colour", "red"), "unknown option 'fields.kind.colour'");
  expect_refused(with("fields.kind.kind", "walk"), "'walk' is neither sequence nor random");
  expect_refused(with("fields.kind.min", "9"), "range [9, 3] is empty");
  expect_refused(with("fields.kind.max", "3000000000"), "leaves int32");
  expect_refused(with("fields.ts.min", "yesterday"), "'fields.ts.min': 'yesterday'");
  expect_refused(with("fields.user.length", "-1"), "'fields.user.length'");
  auto no_end = EventsOptions(10);
  no_end.erase("fields.id.end");
  expect_refused(no_end, "sequence column id needs fields.id.start and fields.id.end");
  auto binary = std::make_shared<BatchSchema>(std::vector<Field>{{"b", DataType::Binary()}});
  auto source = DatagenSource::Make(binary, {});
  ASSERT_FALSE(source.has_value());
  EXPECT_NE(source.error().message().find("column b has type binary"), std::string::npos)
      << source.error().message();

  // A damaged reader state is refused when the reader opens.
  FLOE_ASSERT_OK_AND_ASSIGN(auto good, DatagenSource::Make(EventsSchema(), EventsOptions(10)));
  SourceSnapshot damaged{1, "", {{"datagen:3:4:5"}}};
  auto driver = SourceDriver::Start(*good, 1, &damaged);
  ASSERT_FALSE(driver.has_value());
  EXPECT_EQ(driver.error().kind(), ErrorKind::kCorruptData);
}

}  // namespace
}  // namespace floe::stream
