#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "floe/batch/value.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/runtime/test_jobs.h"
#include "floe/stream/watermark_source.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

BatchSchemaPtr TimeSchema() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"ts", DataType::Timestamp(TimeUnit::kMicro, false, 3)}, {"k", DataType::Int64(), false}});
}

// One row per time, given in milliseconds.
RecordBatch TimeRows(const std::vector<int64_t>& times_ms) {
  std::vector<Value> ts, k;
  for (int64_t ms : times_ms) {
    ts.emplace_back(TimestampValue{.value = ms * 1000});
    k.emplace_back(ms);
  }
  BatchSchemaPtr schema = TimeSchema();
  return RecordBatch::Make(schema, {MakeArray(schema->field(0).type, ts).value(),
                                    MakeArray(schema->field(1).type, k).value()})
      .value();
}

// Passes rows on and records the watermarks the runtime gives the operator. Thread-safe.
class WatermarkLog {
 public:
  std::vector<int64_t> values() const {
    std::lock_guard lock(mutex_);
    return values_;
  }
  bool Seen(int64_t value) const {
    std::lock_guard lock(mutex_);
    return std::find(values_.begin(), values_.end(), value) != values_.end();
  }
  OperatorFactory Probe() {
    return [this](int) -> Result<std::unique_ptr<Operator>> {
      class Probe : public Operator {
       public:
        explicit Probe(WatermarkLog* log) : log_(log) {}
        Status ProcessBatch(int, RecordBatch batch, Output& output) override {
          return output.Emit(std::move(batch));
        }
        Status ProcessWatermark(Watermark watermark, Output& output) override {
          {
            std::lock_guard lock(log_->mutex_);
            log_->values_.push_back(watermark.timestamp_ms);
          }
          return output.EmitWatermark(watermark);
        }

       private:
        WatermarkLog* log_;
      };
      return std::make_unique<Probe>(this);
    };
  }

 private:
  mutable std::mutex mutex_;
  std::vector<int64_t> values_;
};

std::shared_ptr<Source> Rows(std::vector<std::vector<int64_t>> batches) {
  std::vector<RecordBatch> rows;
  for (const auto& times : batches) rows.push_back(TimeRows(times));
  return std::make_shared<CollectionSource>(TimeSchema(), std::move(rows));
}

// Emits its batches, then nothing (kNothingNow) until the job is drained; unbounded.
class StallingSource : public Source {
 public:
  explicit StallingSource(std::shared_ptr<Source> inner) : inner_(std::move(inner)) {}
  BatchSchemaPtr schema() const override { return inner_->schema(); }
  bool bounded() const override { return false; }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override {
    return inner_->CreateEnumerator();
  }
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask) override {
    class Reader : public testing::ForwardingReader {
     public:
      using ForwardingReader::ForwardingReader;
      Result<PollStatus> PollNext(Output& output) override {
        if (done_) return PollStatus::kNothingNow;
        FLOE_ASSIGN_OR_RETURN(PollStatus status, inner_->PollNext(output));
        done_ = status == PollStatus::kEnd;
        return PollStatus::kMoreAvailable;
      }

     private:
      bool done_ = false;
    };
    FLOE_ASSIGN_OR_RETURN(std::unique_ptr<SourceReader> reader, inner_->CreateReader(subtask));
    return std::make_unique<Reader>(std::move(reader));
  }

 private:
  std::shared_ptr<Source> inner_;
};

// Waits (at most 20 s) for `done`, then drains the job.
std::thread DrainWhen(StreamEnvironment& env, std::function<bool()> done) {
  return std::thread([&env, done = std::move(done)] {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    env.Drain();
  });
}

TEST(WatermarkTest, GreatestTimeLessTheDelayWhenItAdvances) {
  StreamEnvironment env({.parallelism = 1});
  FLOE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Source> source,
                            WithWatermarks(Rows({{1000, 400}, {3000, 2999}, {2000}, {2500, 3600}}),
                                           {.time_column = "ts", .out_of_orderness_ms = 500}));
  WatermarkLog log;
  DataStream probed =
      env.FromSource(source, "events").Transform("probe", TimeSchema(), log.Probe());
  auto collected = env.Collect(probed, "collect");
  FLOE_ASSERT_OK(env.Execute("watermarks"));
  // Batch maxima 1000, 3000, 2000 (no advance), 3600; less 500 each.
  EXPECT_EQ(log.values(), (std::vector<int64_t>{500, 2500, 3100}));
  EXPECT_EQ(collected->RowLines().size(), 7u);
}

TEST(WatermarkTest, UnionWaitsForTheSlowestInput) {
  StreamEnvironment env({.parallelism = 1});
  FLOE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Source> fast,
                            WithWatermarks(Rows({{1000}, {5000}}), {.time_column = "ts"}));
  FLOE_ASSERT_OK_AND_ASSIGN(
      std::shared_ptr<Source> slow,
      WithWatermarks(std::make_shared<StallingSource>(Rows({{2000}})), {.time_column = "ts"}));
  DataStream a = env.FromSource(fast, "fast");
  DataStream b = env.FromSource(slow, "slow");
  FLOE_ASSERT_OK_AND_ASSIGN(DataStream both, a.Union({b}, "union"));
  WatermarkLog log;
  env.Collect(both.Transform("probe", TimeSchema(), log.Probe()), "collect");
  // The fast input ends at 5000; the slow one stays at 2000, and holds the union there.
  std::thread drainer = DrainWhen(env, [&] {
    return log.Seen(2000) && env.metrics().Snapshot().count("probe.0.records-in") &&
           env.metrics().Snapshot().at("probe.0.records-in") == 3;
  });
  Result<JobResult> result = env.Execute("union-watermarks");
  drainer.join();
  FLOE_ASSERT_OK(result);
  std::vector<int64_t> values = log.values();
  ASSERT_FALSE(values.empty());
  EXPECT_EQ(values.back(), 2000);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_LE(values[i], 2000);
    if (i > 0) {
      EXPECT_LT(values[i - 1], values[i]);
    }
  }
}

TEST(WatermarkTest, AnIdleInputHoldsNobodyBack) {
  StreamEnvironment env({.parallelism = 1});
  FLOE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Source> fast,
                            WithWatermarks(Rows({{1000}, {5000}}), {.time_column = "ts"}));
  FLOE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Source> slow,
                            WithWatermarks(std::make_shared<StallingSource>(Rows({{2000}})),
                                           {.time_column = "ts", .idle_timeout_ms = 50}));
  DataStream a = env.FromSource(fast, "fast");
  DataStream b = env.FromSource(slow, "slow");
  FLOE_ASSERT_OK_AND_ASSIGN(DataStream both, a.Union({b}, "union"));
  WatermarkLog log;
  env.Collect(both.Transform("probe", TimeSchema(), log.Probe()), "collect");
  std::thread drainer = DrainWhen(env, [&] { return log.Seen(5000); });
  Result<JobResult> result = env.Execute("idle-watermarks");
  drainer.join();
  FLOE_ASSERT_OK(result);
  std::vector<int64_t> values = log.values();
  ASSERT_FALSE(values.empty());
  EXPECT_EQ(values.back(), 5000);
}

TEST(WatermarkTest, RefusesAColumnThatIsNoTimestamp) {
  auto missing = WithWatermarks(Rows({{1}}), {.time_column = "nope"});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("no column 'nope'"), std::string::npos);
  auto bigint = WithWatermarks(Rows({{1}}), {.time_column = "k"});
  ASSERT_FALSE(bigint);
  EXPECT_NE(bigint.error().message().find("not a TIMESTAMP"), std::string::npos);
}

}  // namespace
}  // namespace floe::stream
