// The Kafka source against librdkafka's mock cluster (testing/kafka_cluster.h), its records
// produced by kcat: what each reads is checked against what was produced.

#include "floe/stream/connectors/kafka/kafka_source.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <ranges>
#include <set>
#include <thread>

#include "floe/batch/value.h"
#include "floe/stream/connectors/source_test_driver.h"
#include "floe/testing/kafka_cluster.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

using floe::testing::KafkaCluster;
using testing::SourceDriver;
using testing::SourceSnapshot;

BatchSchemaPtr Schema() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64(), false},
      {"name", DataType::String()},
  });
}

// Partition p holds the ids p * 1000 + i for i < counts[p], as JSON, i being the offset.
std::string ProduceIds(const std::vector<int>& counts) {
  std::string topic = KafkaCluster::NewTopic("ids");
  for (int p = 0; p < std::ssize(counts); ++p) {
    std::vector<std::string> records;
    for (int i = 0; i < counts[p]; ++i) {
      records.push_back(fmt::format(R"({{"id": {}, "name": "n{}"}})", p * 1000 + i, i));
    }
    Status produced = KafkaCluster::Get().Produce(topic, p, records);
    EXPECT_TRUE(produced.has_value()) << produced.error().ToString();
  }
  return topic;
}

std::map<std::string, std::string> Options(const std::string& topic,
                                           std::map<std::string, std::string> more = {}) {
  std::map<std::string, std::string> options = {
      {"topic", topic},
      {"properties.bootstrap.servers", KafkaCluster::Get().bootstrap()},
      {"scan.startup.mode", "earliest-offset"},
      {"scan.bounded.mode", "latest-offset"},
      {"format", "json"}};
  for (auto& [key, value] : more) options[key] = value;
  return options;
}

// The ids of the batches, failing on one seen twice.
std::set<int64_t> Ids(const std::vector<RecordBatch>& batches, size_t from = 0) {
  std::set<int64_t> ids;
  for (size_t b = from; b < batches.size(); ++b) {
    for (int64_t r = 0; r < batches[b].num_rows(); ++r) {
      int64_t id = batches[b].column(0).Value<int64_t>(r);
      EXPECT_TRUE(ids.insert(id).second) << "id " << id << " twice";
    }
  }
  return ids;
}

std::set<int64_t> Expected(const std::vector<std::pair<int, int>>& ranges_by_partition) {
  std::set<int64_t> ids;
  for (int p = 0; p < std::ssize(ranges_by_partition); ++p) {
    auto [from, to] = ranges_by_partition[p];
    for (int i = from; i < to; ++i) ids.insert(p * 1000 + i);
  }
  return ids;
}

// Steps the driver until its readers end, for at most 30 s: records arrive over the network, so
// a step often finds nothing yet.
Status RunToEnd(SourceDriver& driver) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    FLOE_ASSIGN_OR_RETURN(bool running, driver.Step());
    if (!running) return Ok();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return InternalError("the source did not end within 30 s");
}

TEST(KafkaSourceTest, ReadsEveryPartitionOnceSpreadOverSubtasks) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = ProduceIds({30, 20, 25, 5});
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, KafkaSource::Make(Schema(), Options(topic)));
  EXPECT_TRUE(source->bounded());
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 3));
  FLOE_ASSERT_OK(RunToEnd(*driver));
  EXPECT_EQ(Ids(driver->output().batches()), Expected({{0, 30}, {0, 20}, {0, 25}, {0, 5}}));
  // Each partition is read by one subtask, which reports its next offset.
  std::set<std::string> positions;
  for (int s = 0; s < 3; ++s) {
    std::optional<std::string> position = driver->Position(s);
    if (!position) continue;
    for (std::string_view item :
         std::views::split(*position, ',') |
             std::views::transform([](auto r) { return std::string_view(r.begin(), r.end()); })) {
      EXPECT_TRUE(positions.insert(std::string(item)).second) << item;
    }
  }
  // The topic's partitions 4 to 7 are empty: at offset 0.
  EXPECT_EQ(positions, (std::set<std::string>{topic + ":0:30", topic + ":1:20", topic + ":2:25",
                                              topic + ":3:5", topic + ":4:0", topic + ":5:0",
                                              topic + ":6:0", topic + ":7:0"}));
}

TEST(KafkaSourceTest, RestoreReadsOnFromTheCheckpointWithAnotherParallelism) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = ProduceIds({200, 150, 120, 90});
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            KafkaSource::Make(Schema(), Options(topic, {{"batch-size", "7"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto first, SourceDriver::Start(*source, 2));
  // Poll until some, not all, records are out.
  for (int i = 0; i < 2000 && first->output().rows() < 100; ++i) {
    FLOE_ASSERT_OK(first->Step());
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, first->Snapshot(1));
  std::set<int64_t> before = Ids(first->output().batches());
  ASSERT_GE(before.size(), 100u);
  ASSERT_LT(before.size(), 560u);
  first.reset();

  FLOE_ASSERT_OK_AND_ASSIGN(auto second, SourceDriver::Start(*source, 3, &snapshot));
  FLOE_ASSERT_OK(RunToEnd(*second));
  std::set<int64_t> after = Ids(second->output().batches());
  for (int64_t id : after) EXPECT_FALSE(before.contains(id)) << "id " << id << " read twice";
  after.merge(before);
  EXPECT_EQ(after, Expected({{0, 200}, {0, 150}, {0, 120}, {0, 90}}));
}

TEST(KafkaSourceTest, SpecificOffsetsStartAndEnd) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = ProduceIds({10, 10, 10, 10});
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      KafkaSource::Make(Schema(), Options(topic, {{"scan.startup.mode", "specific-offsets"},
                                                  {"scan.startup.specific-offsets",
                                                   "partition:0,offset:3;partition:1,offset:9"},
                                                  {"scan.bounded.mode", "specific-offsets"},
                                                  {"scan.bounded.specific-offsets",
                                                   "partition:0,offset:7;partition:2,offset:4"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 2));
  FLOE_ASSERT_OK(RunToEnd(*driver));
  // Partitions not named start at their earliest offset and end at their latest.
  EXPECT_EQ(Ids(driver->output().batches()), Expected({{3, 7}, {9, 10}, {0, 4}, {0, 10}}));
}

TEST(KafkaSourceTest, LatestOffsetStartReadsNothingOfThePast) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = ProduceIds({10, 10, 10, 10});
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      KafkaSource::Make(Schema(), Options(topic, {{"scan.startup.mode", "latest-offset"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 2));
  FLOE_ASSERT_OK(RunToEnd(*driver));
  EXPECT_EQ(driver->output().rows(), 0);
}

TEST(KafkaSourceTest, UnboundedReadsRecordsProducedWhileItRuns) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = ProduceIds({5, 0, 0, 0});
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      KafkaSource::Make(Schema(), Options(topic, {{"scan.bounded.mode", "unbounded"}})));
  EXPECT_FALSE(source->bounded());
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 2));
  auto step_until = [&](int64_t rows) {
    for (int i = 0; i < 5000 && driver->output().rows() < rows; ++i) {
      auto running = driver->Step();
      ASSERT_TRUE(running.has_value()) << running.error().ToString();
      EXPECT_TRUE(*running);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  step_until(5);
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(topic, 2, {R"({"id": 2000})", R"({"id": 2001})"}));
  step_until(7);
  EXPECT_EQ(Ids(driver->output().batches()), (std::set<int64_t>{0, 1, 2, 3, 4, 2000, 2001}));
}

TEST(KafkaSourceTest, TopicPatternDiscoversNewTopicsFromTheirStart) {
  FLOE_REQUIRE_KAFKA();
  std::string prefix = KafkaCluster::NewTopic("pattern");
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(prefix + "-a", 0, {R"({"id": 1})"}));
  std::map<std::string, std::string> options = Options("", {{"scan.bounded.mode", "unbounded"},
                                                            {"topic-pattern", prefix + "-.*"},
                                                            {"scan.topic-partition-discovery"
                                                             ".interval",
                                                             "50 ms"}});
  options.erase("topic");
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, KafkaSource::Make(Schema(), options));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 2));
  int64_t now = 0;
  auto step_until = [&](int64_t rows) {
    for (int i = 0; i < 5000 && driver->output().rows() < rows; ++i) {
      auto running = driver->Step(now += 10);
      ASSERT_TRUE(running.has_value()) << running.error().ToString();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  step_until(1);
  // Produced before its discovery: read from its earliest offset, not its latest.
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(prefix + "-b", 1, {R"({"id": 2})", R"({"id": 3})"}));
  step_until(3);
  EXPECT_EQ(Ids(driver->output().batches()), (std::set<int64_t>{1, 2, 3}));
}

TEST(KafkaSourceTest, GroupOffsetsStartWhereTheGroupCommitted) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = ProduceIds({10, 10, 10, 10});
  std::string group = topic + "-group";
  // No committed offsets and no auto.offset.reset: an error naming the partition.
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto strict,
      KafkaSource::Make(Schema(), Options(topic, {{"scan.startup.mode", "group-offsets"},
                                                  {"properties.group.id", group}})));
  auto failed = SourceDriver::Start(*strict, 1);
  ASSERT_FALSE(failed.has_value());
  EXPECT_NE(failed.error().message().find("partition 0"), std::string::npos)
      << failed.error().message();

  // A first job reads everything and, once its checkpoint completes, commits to the group.
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto first, KafkaSource::Make(Schema(), Options(topic, {{"properties.group.id", group}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto first_run, SourceDriver::Start(*first, 2));
  FLOE_ASSERT_OK(RunToEnd(*first_run));
  FLOE_ASSERT_OK(first_run->Snapshot(1));
  FLOE_ASSERT_OK(first_run->NotifyCheckpointComplete(1));
  first_run.reset();

  // Records produced later are what a group-offsets start reads (the commit is asynchronous:
  // wait for it to land).
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(topic, 3, {R"({"id": 3010})"}));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto resumed,
      KafkaSource::Make(Schema(), Options(topic, {{"scan.startup.mode", "group-offsets"},
                                                  {"properties.group.id", group},
                                                  {"properties.auto.offset.reset", "earliest"}})));
  std::set<int64_t> ids;
  for (int attempt = 0; attempt < 50; ++attempt) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto run, SourceDriver::Start(*resumed, 2));
    FLOE_ASSERT_OK(RunToEnd(*run));
    ids = Ids(run->output().batches());
    if (ids.size() == 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(ids, (std::set<int64_t>{3010}));
}

TEST(KafkaSourceTest, ResumesFromCommittedPositionsOnAFreshStart) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = ProduceIds({10, 10, 10, 10});
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, KafkaSource::Make(Schema(), Options(topic)));
  // Newest commit first: partition 0's offset 6 wins over the older 2; partitions 2 and 3 are
  // not named and follow scan.startup.mode.
  source->ResumeFromCommitted([topic]() -> Result<std::vector<std::string>> {
    return std::vector<std::string>{fmt::format("{}:0:6,{}:1:10", topic, topic),
                                    fmt::format("{}:0:2,{}:2:4", topic, topic)};
  });
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 2));
  FLOE_ASSERT_OK(RunToEnd(*driver));
  EXPECT_EQ(Ids(driver->output().batches()), Expected({{6, 10}, {0, 0}, {4, 10}, {0, 10}}));

  // A restore from a checkpoint ignores them.
  FLOE_ASSERT_OK_AND_ASSIGN(auto fresh, KafkaSource::Make(Schema(), Options(topic)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto plain, SourceDriver::Start(*fresh, 1));
  FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, plain->Snapshot(1));
  FLOE_ASSERT_OK_AND_ASSIGN(auto again, SourceDriver::Start(*source, 1, &snapshot));
  FLOE_ASSERT_OK(RunToEnd(*again));
  EXPECT_EQ(Ids(again->output().batches()).size(), 40u);
}

// The test cluster keeps at most 5 MiB of record batches per partition: the 1M-record run of
// kafka_exactly_once_test lost the oldest records of each partition that way before its job
// started (ids, counted, that no Iceberg commit ever held). Now records are produced compressed,
// 300k small JSON records (9 MB as text) in one partition all stay, and each is read once.
TEST(KafkaSourceTest, EveryRecordOfALargePartitionIsKeptAndRead) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = KafkaCluster::NewTopic("large");
  constexpr int kRecords = 300'000;
  std::vector<std::string> records;
  for (int i = 0; i < kRecords; ++i) {
    records.push_back(fmt::format(R"({{"id": {}, "name": "n{}"}})", i, i % 97));
  }
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(topic, 5, records));
  FLOE_ASSERT_OK_AND_ASSIGN(auto watermarks, KafkaCluster::Get().Watermarks(topic, 5));
  EXPECT_EQ(watermarks, (std::pair<int64_t, int64_t>(0, kRecords)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, KafkaSource::Make(Schema(), Options(topic)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 2));
  FLOE_ASSERT_OK(RunToEnd(*driver));
  std::set<int64_t> ids = Ids(driver->output().batches());
  ASSERT_EQ(ids.size(), static_cast<size_t>(kRecords));
  EXPECT_EQ(*ids.begin(), 0);
  EXPECT_EQ(*ids.rbegin(), kRecords - 1);
}

// Records the cluster deleted (more than its 5 MiB per partition, of random bytes that do not
// compress): the helper says so, and a read from an offset no longer held fails naming the
// partition, the offset and what the partition holds, instead of skipping to the log start.
TEST(KafkaSourceTest, ReadFromADeletedOffsetFailsInsteadOfSkipping) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = KafkaCluster::NewTopic("retention");
  std::mt19937_64 random(42);
  std::vector<std::string> records;
  for (int i = 0; i < 800; ++i) {
    std::string payload;
    for (int c = 0; c < 1000; ++c) payload += fmt::format("{:016x}", random());
    records.push_back(fmt::format(R"({{"id": {}, "name": "{}"}})", i, payload));
  }
  Status produced = KafkaCluster::Get().Produce(topic, 0, records);
  ASSERT_FALSE(produced);
  EXPECT_EQ(produced.error().kind(), ErrorKind::kResourceExhausted) << produced.error().message();
  FLOE_ASSERT_OK_AND_ASSIGN(auto watermarks, KafkaCluster::Get().Watermarks(topic, 0));
  ASSERT_GT(watermarks.first, 0);

  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      KafkaSource::Make(
          Schema(), Options(topic, {{"scan.startup.mode", "specific-offsets"},
                                    {"scan.startup.specific-offsets", "partition:0,offset:0"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 1));
  Status run = RunToEnd(*driver);
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().message().find(fmt::format(
                "topic {} partition 0 offset 0: out of range, the partition holds offsets {}..{}",
                topic, watermarks.first, watermarks.second - 1)),
            std::string::npos)
      << run.error().message();
}

TEST(KafkaSourceTest, MalformedRecordFailsNamingWhereOrIsSkippedAndCounted) {
  FLOE_REQUIRE_KAFKA();
  std::string topic = KafkaCluster::NewTopic("bad");
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(
      topic, 1, {R"({"id": 1})", R"({"id": 2, "name": )", R"({"id": "three"})", R"({"id": 4})"}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto strict, KafkaSource::Make(Schema(), Options(topic)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*strict, 1));
  Status run = RunToEnd(*driver);
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().message().find("topic " + topic + " partition 1 offset 1"),
            std::string::npos)
      << run.error().message();

  FLOE_ASSERT_OK_AND_ASSIGN(
      auto lenient,
      KafkaSource::Make(Schema(), Options(topic, {{"json.ignore-parse-errors", "true"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto skipping, SourceDriver::Start(*lenient, 1));
  FLOE_ASSERT_OK(RunToEnd(*skipping));
  EXPECT_EQ(Ids(skipping->output().batches()), (std::set<int64_t>{1, 4}));
  EXPECT_EQ(skipping->metrics().Get("source.0.recordsSkipped"), 2);
}

TEST(KafkaSourceTest, CsvRawAndDebeziumRecords) {
  FLOE_REQUIRE_KAFKA();
  std::string csv = KafkaCluster::NewTopic("csv");
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(csv, 0, {"1,a", "2,", "3,\"c,d\""}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto csv_source,
                            KafkaSource::Make(Schema(), Options(csv, {{"format", "csv"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto csv_run, SourceDriver::Start(*csv_source, 1));
  FLOE_ASSERT_OK(RunToEnd(*csv_run));
  std::string lines;
  for (const RecordBatch& batch : csv_run->output().batches()) AppendJsonLines(batch, lines);
  EXPECT_EQ(lines,
            "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":null}\n"
            "{\"id\":3,\"name\":\"c,d\"}\n");

  auto line_schema =
      std::make_shared<BatchSchema>(std::vector<Field>{{"line", DataType::String()}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto raw_source,
                            KafkaSource::Make(line_schema, Options(csv, {{"format", "raw"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto raw_run, SourceDriver::Start(*raw_source, 1));
  FLOE_ASSERT_OK(RunToEnd(*raw_run));
  lines.clear();
  for (const RecordBatch& batch : raw_run->output().batches()) AppendJsonLines(batch, lines);
  EXPECT_EQ(lines, "{\"line\":\"1,a\"}\n{\"line\":\"2,\"}\n{\"line\":\"3,\\\"c,d\\\"\"}\n");

  std::string cdc = KafkaCluster::NewTopic("cdc");
  FLOE_ASSERT_OK(KafkaCluster::Get().Produce(
      cdc, 0,
      {R"({"before": null, "after": {"id": 1, "name": "a"}, "op": "c"})",
       R"({"before": {"id": 1, "name": "a"}, "after": {"id": 1, "name": "b"}, "op": "u"})",
       R"({"before": {"id": 1, "name": "b"}, "after": null, "op": "d"})", ""}));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto cdc_source, KafkaSource::Make(Schema(), Options(cdc, {{"format", "debezium-json"}})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto cdc_run, SourceDriver::Start(*cdc_source, 1));
  FLOE_ASSERT_OK(RunToEnd(*cdc_run));
  std::vector<std::string> changes;
  for (const RecordBatch& batch : cdc_run->output().batches()) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      changes.push_back(fmt::format("{} {} {}", RowKindSymbol(batch.row_kind(r)),
                                    batch.column(0).Value<int64_t>(r), batch.column(1).GetView(r)));
    }
  }
  EXPECT_EQ(changes, (std::vector<std::string>{"+I 1 a", "-U 1 a", "+U 1 b", "-D 1 b"}));
}

TEST(KafkaSourceTest, MakeRefusesBadOptions) {
  auto no_group = KafkaSource::Make(
      Schema(), {{"topic", "t"}, {"properties.bootstrap.servers", "x:1"}, {"format", "json"}});
  ASSERT_FALSE(no_group);
  EXPECT_NE(no_group.error().message().find("properties.group.id"), std::string::npos);
  auto bad_format = KafkaSource::Make(Schema(), {{"topic", "t"},
                                                 {"properties.bootstrap.servers", "x:1"},
                                                 {"scan.startup.mode", "earliest-offset"},
                                                 {"format", "protobuf"}});
  ASSERT_FALSE(bad_format);
  EXPECT_NE(bad_format.error().message().find("protobuf"), std::string::npos);
  auto builder = KafkaSource::Builder()
                     .BootstrapServers("x:1")
                     .Topics({"a", "b"})
                     .StartingOffsets("earliest-offset")
                     .BoundedBy("latest-offset")
                     .Format("csv")
                     .Set("csv.ignore-parse-errors", "true")
                     .Build(Schema());
  ASSERT_TRUE(builder.has_value()) << builder.error().ToString();
  EXPECT_EQ((*builder)->options().topics, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE((*builder)->bounded());
}

}  // namespace
}  // namespace floe::stream
