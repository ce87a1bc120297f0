// Bounded jobs without checkpoints: every exchange at parallelism 1-4, backpressure, batch mode,
// cancellation, and the errors a bad graph gets.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <sstream>
#include <thread>

#include "floe/batch/filter.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/runtime/test_jobs.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

using testing::ExpectedLines;
using testing::Keys;
using testing::Lambda;
using testing::Recorder;
using testing::RowSchema;
using testing::RowsSource;
using testing::Sorted;

constexpr int kBatches = 23;
constexpr int kRows = 5;

class ExchangeTest : public ::testing::TestWithParam<int> {};

TEST_P(ExchangeTest, ForwardKeepsEachSubtaskOnItsOwnLane) {
  int p = GetParam();
  StreamEnvironment env({.parallelism = p});
  Recorder recorder;
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows");
  DataStream probed = rows.Forward().Transform("probe", RowSchema(), recorder.Probe());
  auto collected = env.Collect(probed, "collect");
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("forward"));
  EXPECT_EQ(Sorted(collected->RowLines()), ExpectedLines(kBatches * kRows));
  // Source subtask s reads batches b with b % p == s; forward hands them to probe subtask s.
  for (const auto& [subtask, keys] : recorder.keys()) {
    for (int64_t key : keys) EXPECT_EQ((key / kRows) % p, subtask) << key;
  }
  EXPECT_EQ(result.metrics.at("probe.0.records-in"),
            static_cast<int64_t>(recorder.keys()[0].size()));
}

TEST_P(ExchangeTest, RebalanceDealsBatchesRoundRobin) {
  int p = GetParam();
  StreamEnvironment env({.parallelism = p});
  Recorder recorder;
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows", 1);
  DataStream probed = rows.Rebalance().Transform("probe", RowSchema(), recorder.Probe());
  auto collected = env.Collect(probed, "collect");
  FLOE_ASSERT_OK(env.Execute("rebalance"));
  EXPECT_EQ(Sorted(collected->RowLines()), ExpectedLines(kBatches * kRows));
  // One upstream subtask: its n-th batch goes to subtask n % p.
  for (const auto& [subtask, batches] : recorder.batches()) {
    EXPECT_EQ(batches, kBatches / p + (subtask < kBatches % p ? 1 : 0)) << subtask;
  }
}

TEST_P(ExchangeTest, HashSendsEqualKeysToOneSubtask) {
  int p = GetParam();
  StreamEnvironment env({.parallelism = p});
  Recorder recorder;
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows", 2);
  DataStream probed = rows.KeyBy({"g"}).Transform("probe", RowSchema(), recorder.Probe());
  auto collected = env.Collect(probed, "collect");
  FLOE_ASSERT_OK(env.Execute("hash"));
  EXPECT_EQ(Sorted(collected->RowLines()), ExpectedLines(kBatches * kRows));
  std::map<int64_t, std::set<int>> subtasks_of_group;
  for (const auto& [subtask, keys] : recorder.keys()) {
    for (int64_t key : keys) subtasks_of_group[key % 7].insert(subtask);
  }
  EXPECT_EQ(subtasks_of_group.size(), 7u);
  for (const auto& [group, subtasks] : subtasks_of_group) EXPECT_EQ(subtasks.size(), 1u) << group;
}

TEST_P(ExchangeTest, BroadcastSendsEveryRowEverywhere) {
  int p = GetParam();
  StreamEnvironment env({.parallelism = p});
  Recorder recorder;
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows", 1);
  DataStream probed = rows.Broadcast().Transform("probe", RowSchema(), recorder.Probe());
  auto collected = env.Collect(probed, "collect");
  FLOE_ASSERT_OK(env.Execute("broadcast"));
  EXPECT_EQ(collected->num_rows(), int64_t{kBatches} * kRows * p);
  ASSERT_EQ(recorder.keys().size(), static_cast<size_t>(p));
  for (auto [subtask, keys] : recorder.keys()) {
    std::sort(keys.begin(), keys.end());
    ASSERT_EQ(keys.size(), static_cast<size_t>(kBatches * kRows)) << subtask;
    for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(keys[i], static_cast<int64_t>(i));
  }
}

class ModuloSelector : public ChannelSelector {
 public:
  Status SelectChannels(const RecordBatch& batch, int num_channels,
                        std::vector<int32_t>& channels) override {
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      channels[i] = static_cast<int32_t>(batch.column(0).Value<int64_t>(i) % num_channels);
    }
    return {};
  }
};

TEST_P(ExchangeTest, CustomRoutesRowsByTheSelector) {
  int p = GetParam();
  StreamEnvironment env({.parallelism = p});
  Recorder recorder;
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows", 3);
  DataStream probed = rows.PartitionCustom([](int) -> Result<std::unique_ptr<ChannelSelector>> {
                            return std::make_unique<ModuloSelector>();
                          })
                          .Transform("probe", RowSchema(), recorder.Probe());
  auto collected = env.Collect(probed, "collect");
  FLOE_ASSERT_OK(env.Execute("custom"));
  EXPECT_EQ(Sorted(collected->RowLines()), ExpectedLines(kBatches * kRows));
  for (const auto& [subtask, keys] : recorder.keys()) {
    for (int64_t key : keys) EXPECT_EQ(key % p, subtask) << key;
  }
}

INSTANTIATE_TEST_SUITE_P(Parallelism, ExchangeTest, ::testing::Values(1, 2, 3, 4));

TEST(JobTest, RowKindsAndMessagesTravel) {
  StreamEnvironment env({.parallelism = 2});
  DataStream rows = env.FromSource(RowsSource(4, 3), "rows");
  // Marks every row as a delete, and tells subtask 0 of the next operator how many rows it saw.
  class Deleter : public Operator {
   public:
    Status ProcessBatch(int, RecordBatch batch, Output& output) override {
      count_ += batch.num_rows();
      std::vector<RowKind> deletes(static_cast<size_t>(batch.num_rows()), RowKind::kDelete);
      Buffer kinds = Buffer::CopyOf(deletes.data(), batch.num_rows());
      FLOE_ASSIGN_OR_RETURN(RecordBatch deleted, batch.WithRowKinds(kinds));
      return output.Emit(std::move(deleted));
    }
    Status Finish(Output& output) override { return output.EmitMessage(Message{count_}, 0); }

   private:
    int64_t count_ = 0;
  };
  std::atomic<int64_t> counted = 0;
  class Counter : public Operator {
   public:
    explicit Counter(std::atomic<int64_t>& counted) : counted_(counted) {}
    Status ProcessBatch(int, RecordBatch batch, Output& output) override {
      return output.Emit(std::move(batch));
    }
    Status ProcessMessage(int, Message message, Output&) override {
      counted_ += std::any_cast<int64_t>(message.value);
      return {};
    }

   private:
    std::atomic<int64_t>& counted_;
  };
  DataStream deleted = rows.Transform(
      "delete", RowSchema(),
      [](int) -> Result<std::unique_ptr<Operator>> { return std::make_unique<Deleter>(); });
  DataStream counted_rows =
      deleted.Transform("count", RowSchema(), [&counted](int) -> Result<std::unique_ptr<Operator>> {
        return std::make_unique<Counter>(counted);
      });
  auto collected = env.Collect(counted_rows, "collect");
  FLOE_ASSERT_OK(env.Execute("row-kinds"));
  EXPECT_EQ(counted.load(), 12);
  std::vector<std::string> lines = Sorted(collected->RowLines());
  ASSERT_EQ(lines.size(), 12u);
  EXPECT_EQ(lines[0], "-D[0, 0, r0]");
  EXPECT_EQ(lines[11], "-D[9, 2, r9]");
}

TEST(JobTest, SlowSinkHoldsBackTheSender) {
  constexpr int kCapacity = 2;
  StreamEnvironment env({.parallelism = 1, .channel_capacity = kCapacity});
  std::atomic<int64_t> emitted = 0;
  std::atomic<int64_t> most_in_flight = 0;
  class Sender : public Operator {
   public:
    explicit Sender(std::atomic<int64_t>& emitted) : emitted_(emitted) {}
    Status ProcessBatch(int, RecordBatch batch, Output& output) override {
      FLOE_RETURN_IF_ERROR(output.Emit(std::move(batch)));
      ++emitted_;
      return {};
    }

   private:
    std::atomic<int64_t>& emitted_;
  };
  DataStream rows = env.FromSource(RowsSource(60, 2), "rows");
  DataStream sent = rows.Transform(
      "send", RowSchema(),
      [&](int) -> Result<std::unique_ptr<Operator>> { return std::make_unique<Sender>(emitted); });
  int64_t received = 0;
  sent.SinkTo("slow", testing::Lambda([&](int, RecordBatch) -> Result<std::optional<RecordBatch>> {
                ++received;
                // Batches the sender has handed over that this sink has not taken sit in the
                // channel.
                int64_t in_flight = emitted.load() - received;
                most_in_flight = std::max(most_in_flight.load(), in_flight);
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                return std::nullopt;
              }));
  FLOE_ASSERT_OK(env.Execute("backpressure"));
  EXPECT_EQ(received, 60);
  EXPECT_LE(most_in_flight.load(), kCapacity);
}

// Sums v's length per group g in Finish: output only exists once the input has ended.
class GroupCount : public Operator {
 public:
  Status Open(const OperatorContext& context) override {
    if (context.streaming) return InvalidArgument("expected batch mode");
    return {};
  }
  Status ProcessBatch(int, RecordBatch batch, Output&) override {
    for (int64_t i = 0; i < batch.num_rows(); ++i) ++counts_[batch.column(1).Value<int32_t>(i)];
    return {};
  }
  Status Finish(Output& output) override {
    std::vector<Value> g, n;
    for (auto [group, count] : counts_) {
      g.emplace_back(group);
      n.emplace_back(count);
    }
    auto schema = std::make_shared<BatchSchema>(
        std::vector<Field>{{"g", DataType::Int32()}, {"n", DataType::Int64()}});
    FLOE_ASSIGN_OR_RETURN(Array ga, MakeArray(DataType::Int32(), g));
    FLOE_ASSIGN_OR_RETURN(Array na, MakeArray(DataType::Int64(), n));
    FLOE_ASSIGN_OR_RETURN(RecordBatch out, RecordBatch::Make(schema, {ga, na}));
    return output.Emit(std::move(out));
  }

 private:
  std::map<int32_t, int64_t> counts_;
};

TEST(JobTest, BatchModeAggregatesInFinish) {
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 3});
  DataStream rows = env.FromSource(RowsSource(20, 7), "rows");
  auto schema = std::make_shared<BatchSchema>(
      std::vector<Field>{{"g", DataType::Int32()}, {"n", DataType::Int64()}});
  DataStream counts = rows.KeyBy({"g"}).Transform(
      "count", schema,
      [](int) -> Result<std::unique_ptr<Operator>> { return std::make_unique<GroupCount>(); });
  std::ostringstream printed;
  PrintTo(counts, "print", printed);
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("batch"));
  EXPECT_EQ(result.checkpoints_completed, 0);
  // 140 rows numbered 0..139: group g holds the numbers congruent to g mod 7, 20 each.
  std::vector<std::string> lines;
  std::istringstream in(printed.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<std::string> expected;
  for (int g = 0; g < 7; ++g) expected.push_back(fmt::format("+I[{}, 20]", g));
  EXPECT_EQ(Sorted(lines), expected);
}

// A semi-join: keeps the rows of input 0 whose key input 1 holds. It builds from input 1 first,
// so it holds input 0 back until EndInput(1); it fails when a batch arrives on an input that has
// ended, or when Finish comes before both ends.
class SemiJoin : public Operator {
 public:
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override {
    if (ended_[input]) return InternalError("a batch on input {} after its end", input);
    if (input == 1) {
      for (int64_t key : testing::Keys(batch)) build_.insert(key);
      return {};
    }
    if (!ended_[1]) {
      held_.push_back(std::move(batch));
      return {};
    }
    return Probe(batch, output);
  }
  Status EndInput(int input, Output& output) override {
    if (ended_[input]) return InternalError("input {} ended twice", input);
    ended_[input] = true;
    if (input != 1) return {};
    for (const RecordBatch& batch : held_) FLOE_RETURN_IF_ERROR(Probe(batch, output));
    held_.clear();
    return {};
  }
  Status Finish(Output&) override {
    if (!ended_[0] || !ended_[1]) return InternalError("Finish before the end of every input");
    return {};
  }

 private:
  Status Probe(const RecordBatch& batch, Output& output) {
    std::vector<uint8_t> keep;
    for (int64_t key : testing::Keys(batch)) keep.push_back(build_.contains(key));
    FLOE_ASSIGN_OR_RETURN(RecordBatch kept, FilterBatch(batch, keep));
    return output.Emit(std::move(kept));
  }

  bool ended_[2] = {false, false};
  std::set<int64_t> build_;
  std::vector<RecordBatch> held_;
};

TEST(JobTest, TwoInputOperatorSeesEachInputEnd) {
  for (RuntimeMode mode : {RuntimeMode::kBatch, RuntimeMode::kStreaming}) {
    StreamEnvironment env({.mode = mode, .parallelism = 3});
    DataStream probe = env.FromSource(RowsSource(20, 7), "probe");
    DataStream build = env.FromSource(RowsSource(10, 7), "build", 2);
    DataStream joined = probe.KeyBy({"k"}).TransformWith(
        {build.KeyBy({"k"})}, "semi-join", RowSchema(),
        [](int) -> Result<std::unique_ptr<Operator>> { return std::make_unique<SemiJoin>(); });
    auto collected = env.Collect(joined, "collect");
    FLOE_ASSERT_OK(env.Execute("two-inputs"));
    // Rows 0..139 probe rows 0..69.
    EXPECT_EQ(Sorted(collected->RowLines()), ExpectedLines(70));
  }
}

TEST(JobTest, UnionCarriesEveryRowOfEveryInput) {
  StreamEnvironment env({.parallelism = 2});
  DataStream first = env.FromSource(RowsSource(20, 7), "first");
  DataStream second = env.FromSource(
      std::make_shared<CollectionSource>(
          RowSchema(),
          std::vector<RecordBatch>{testing::MakeRows(140, 70), testing::MakeRows(210, 70)}),
      "second", 1);
  DataStream third =
      env.FromSource(std::make_shared<CollectionSource>(
                         RowSchema(), std::vector<RecordBatch>{testing::MakeRows(280, 20)}),
                     "third", 3);
  FLOE_ASSERT_OK_AND_ASSIGN(DataStream all, first.Union({second, third}, "union"));
  EXPECT_EQ(all.parallelism(), 2);
  auto collected = env.Collect(all, "collect");
  FLOE_ASSERT_OK(env.Execute("union"));
  EXPECT_EQ(Sorted(collected->RowLines()), ExpectedLines(300));

  // Types must match by position; names need not.
  auto renamed = std::make_shared<BatchSchema>(std::vector<Field>{
      {"a", DataType::Int64()}, {"b", DataType::Int32()}, {"c", DataType::String()}});
  auto other_types = std::make_shared<BatchSchema>(std::vector<Field>{
      {"k", DataType::Int64()}, {"g", DataType::Int64()}, {"v", DataType::String()}});
  DataStream same = env.FromSource(
      std::make_shared<CollectionSource>(renamed, std::vector<RecordBatch>{}), "renamed");
  DataStream differs = env.FromSource(
      std::make_shared<CollectionSource>(other_types, std::vector<RecordBatch>{}), "differs");
  FLOE_ASSERT_OK_AND_ASSIGN(DataStream ok, first.Union({same}, "union-2"));
  EXPECT_EQ(ok.schema()->field(0).name, "k");
  auto bad = first.Union({differs}, "union-3");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("types differ"), std::string::npos);
}

TEST(JobTest, CancelEndsAnEndlessJob) {
  StreamEnvironment env({.parallelism = 2});
  DataStream rows = env.FromSource(std::make_shared<testing::EndlessSource>(10), "endless");
  std::atomic<int64_t> seen = 0;
  rows.SinkTo("count", Lambda([&](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
                seen += batch.num_rows();
                return std::nullopt;
              }));
  std::thread canceller([&] {
    while (seen.load() < 1000) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    env.Cancel();
  });
  auto result = env.Execute("endless");
  canceller.join();
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kCancelled);
}

TEST(JobTest, AFailureWithoutRestartsFailsTheJob) {
  StreamEnvironment env({.parallelism = 2});
  DataStream rows = env.FromSource(std::make_shared<testing::EndlessSource>(10), "endless");
  rows.SinkTo("fail", Lambda([](int subtask, RecordBatch) -> Result<std::optional<RecordBatch>> {
                if (subtask == 1) return IOError("disk on fire");
                return std::nullopt;
              }));
  auto result = env.Execute("failing");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kIO);
  EXPECT_NE(result.error().message().find("disk on fire"), std::string::npos);
  EXPECT_NE(result.error().message().find("fail (2/2)"), std::string::npos);
}

void ExpectInvalid(StreamEnvironment& env, std::string_view needle) {
  auto result = env.Execute("bad");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(result.error().message().find(needle), std::string::npos) << result.error().message();
}

TEST(JobGraphTest, BadGraphsFailWithClearErrors) {
  {
    StreamEnvironment env;
    env.FromSource(RowsSource(1, 1), "rows").KeyBy({"nope"}).SinkTo("s", Lambda(nullptr));
    ExpectInvalid(env, "no column 'nope'");
  }
  {
    StreamEnvironment env({.mode = RuntimeMode::kBatch});
    env.FromSource(std::make_shared<testing::EndlessSource>(1), "endless")
        .SinkTo("s", Lambda(nullptr));
    ExpectInvalid(env, "source 'endless' is unbounded");
  }
  {
    StreamEnvironment env({.checkpoint_interval_ms = 100});
    env.FromSource(RowsSource(1, 1), "rows").SinkTo("s", Lambda(nullptr));
    ExpectInvalid(env, "need a checkpoint_dir");
  }
  {
    StreamEnvironment env({.parallelism = 2});
    env.FromSource(RowsSource(1, 1), "rows").Forward().SinkTo("s", Lambda(nullptr), 3);
    ExpectInvalid(env, "forward exchange from 'rows' (parallelism 2) to 's' (parallelism 3)");
  }
  {
    StreamEnvironment env;
    env.FromSource(RowsSource(1, 1), "x").SinkTo("x", Lambda(nullptr));
    ExpectInvalid(env, "two operators are named 'x'");
  }
  {
    StreamEnvironment env;
    env.FromSource(RowsSource(1, 1), "rows");
    ExpectInvalid(env, "read by no operator");
  }
}

}  // namespace
}  // namespace floe::stream
