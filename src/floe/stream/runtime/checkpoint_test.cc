// Checkpoints, restarts, resuming and savepoints, checked end to end: a two-phase-commit sink
// writes the rows of a checkpoint to files only once the checkpoint is complete, and the files
// must hold every input row exactly once whatever failed in between.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "floe/io/local_file_io.h"
#include "floe/stream/checkpoint_storage.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/runtime/test_jobs.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

namespace fs = std::filesystem;
using testing::ExpectedLines;
using testing::Lambda;
using testing::RowSchema;
using testing::RowsSource;
using testing::Sorted;

// Buffers rows; at checkpoint N they become a pending commit (kept in the state, one entry each:
// its name, then its rows); when N completes every pending commit up to N is written to
// <dir>/<name>.txt (through a temporary file, skipped when present: commits are idempotent, as
// a restored pending commit may have landed before the failure). Finish commits the rest under a
// name of its own, as a sink does whose last commit no checkpoint covers: only a final checkpoint
// after all data keeps a restart after that commit from committing the tail again.
class TwoPhaseSink : public Operator {
 public:
  explicit TwoPhaseSink(fs::path dir) : dir_(std::move(dir)) {}

  Status Open(const OperatorContext& context) override {
    subtask_ = context.subtask_index;
    // Pending commits of a complete checkpoint: its notification may never have arrived.
    for (const std::string& entry : context.restored_state) FLOE_RETURN_IF_ERROR(Commit(entry));
    return {};
  }
  Status ProcessBatch(int, RecordBatch batch, Output&) override {
    for (int64_t i = 0; i < batch.num_rows(); ++i) buffer_ += FormatRow(batch, i) + "\n";
    return {};
  }
  Result<std::vector<std::string>> SnapshotState(int64_t id, Output&) override {
    pending_[id] = fmt::format("commit-{}-{}\n", id, subtask_) + std::exchange(buffer_, "");
    std::vector<std::string> state;
    for (const auto& [pending_id, entry] : pending_) state.push_back(entry);
    return state;
  }
  Status NotifyCheckpointComplete(int64_t id) override {
    while (!pending_.empty() && pending_.begin()->first <= id) {
      FLOE_RETURN_IF_ERROR(Commit(pending_.begin()->second));
      pending_.erase(pending_.begin());
    }
    return {};
  }
  Status Finish(Output&) override {
    for (const auto& [id, entry] : pending_) FLOE_RETURN_IF_ERROR(Commit(entry));
    if (buffer_.empty()) return {};
    static std::atomic<int64_t> finishes = 0;
    return Commit(fmt::format("final-{}-{}\n", subtask_, ++finishes) + buffer_);
  }

 private:
  Status Commit(const std::string& entry) {
    size_t newline = entry.find('\n');
    fs::path path = dir_ / (entry.substr(0, newline) + ".txt");
    if (fs::exists(path)) return {};
    fs::path temporary = path;
    temporary += ".tmp";
    std::ofstream(temporary) << entry.substr(newline + 1);
    std::error_code error;
    fs::rename(temporary, path, error);
    if (error) return IOError("committing {}: {}", path.string(), error.message());
    return {};
  }

  fs::path dir_;
  int subtask_ = 0;
  std::string buffer_;
  std::map<int64_t, std::string> pending_;
};

OperatorFactory TwoPhaseSinkFactory(fs::path dir) {
  return [dir](int) -> Result<std::unique_ptr<Operator>> {
    return std::make_unique<TwoPhaseSink>(dir);
  };
}

std::vector<std::string> CommittedLines(const fs::path& dir) {
  std::vector<std::string> lines;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// Passes batches on, slowly enough for checkpoints to happen while the job runs; fails when
// `fail` says so.
OperatorFactory SlowMap(std::function<bool(int subtask, int64_t batches)> fail) {
  auto batches = std::make_shared<std::atomic<int64_t>>(0);
  return Lambda(
      [fail, batches](int subtask, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (fail && fail(subtask, ++*batches)) return IOError("injected failure");
        return batch;
      });
}

// Counts when checkpoints complete (any subtask's notification).
class CompletionProbe : public Operator {
 public:
  explicit CompletionProbe(std::atomic<int>& completed) : completed_(completed) {}
  Status ProcessBatch(int, RecordBatch batch, Output& output) override {
    return output.Emit(std::move(batch));
  }
  Status NotifyCheckpointComplete(int64_t) override {
    ++completed_;
    return {};
  }

 private:
  std::atomic<int>& completed_;
};

OperatorFactory Probe(std::atomic<int>& completed) {
  return [&completed](int) -> Result<std::unique_ptr<Operator>> {
    return std::make_unique<CompletionProbe>(completed);
  };
}

constexpr int kBatches = 300;
constexpr int kRows = 4;

// The rows, half of them at once and the other half once `gate` says so.
std::shared_ptr<Source> GatedRows(std::function<bool()> gate, int parallelism = 2) {
  return std::make_shared<testing::GatedSource>(RowsSource(kBatches, kRows),
                                                kBatches / 2 / parallelism, std::move(gate));
}

TEST(CheckpointTest, ExactlyOnceThroughAFailureAndARestart) {
  floe::testing::TempDir dir;
  fs::path out = dir.path() / "out";
  fs::create_directories(out);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 20,
                         .checkpoint_dir = (dir.path() / "checkpoints").string(),
                         .restart = {.max_attempts = 2, .delay_ms = 10}});
  std::atomic<int> completed = 0;
  std::atomic<bool> failed = false;
  // Half the input, then the rest once a checkpoint has completed; the first batch after that
  // fails, once.
  DataStream rows = env.FromSource(GatedRows([&] { return completed.load() > 0; }), "rows");
  DataStream probed = rows.Transform("probe", RowSchema(), Probe(completed));
  DataStream mapped = probed.Transform("map", RowSchema(), SlowMap([&](int, int64_t) {
                                         return completed.load() > 0 && !failed.exchange(true);
                                       }));
  mapped.KeyBy({"g"}).SinkTo("sink", TwoPhaseSinkFactory(out), 3);
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("exactly-once"));
  EXPECT_TRUE(failed.load());
  EXPECT_EQ(result.restarts, 1);
  EXPECT_GE(result.checkpoints_completed, 1);
  EXPECT_EQ(CommittedLines(out), ExpectedLines(kBatches * kRows));
}

// The same through a union of two sources: barriers align over both inputs.
TEST(CheckpointTest, UnionOfTwoInputsIsExactlyOnceThroughAFailure) {
  floe::testing::TempDir dir;
  fs::path out = dir.path() / "out";
  fs::create_directories(out);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 20,
                         .checkpoint_dir = (dir.path() / "checkpoints").string(),
                         .restart = {.max_attempts = 2, .delay_ms = 10}});
  std::atomic<int> completed = 0;
  std::atomic<bool> failed = false;
  auto gate = [&] { return completed.load() > 0; };
  std::vector<RecordBatch> tail;
  for (int b = 0; b < kBatches; ++b)
    tail.push_back(testing::MakeRows(kBatches * kRows + b * kRows, kRows));
  DataStream first = env.FromSource(GatedRows(gate), "first");
  DataStream second = env.FromSource(
      std::make_shared<testing::GatedSource>(std::make_shared<CollectionSource>(RowSchema(), tail),
                                             kBatches / 2 / 3, gate),
      "second", 3);
  FLOE_ASSERT_OK_AND_ASSIGN(DataStream both, first.Union({second}, "union"));
  DataStream probed = both.Transform("probe", RowSchema(), Probe(completed));
  DataStream mapped = probed.Transform("map", RowSchema(), SlowMap([&](int, int64_t) {
                                         return completed.load() > 0 && !failed.exchange(true);
                                       }));
  mapped.KeyBy({"g"}).SinkTo("sink", TwoPhaseSinkFactory(out), 3);
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("union-exactly-once"));
  EXPECT_TRUE(failed.load());
  EXPECT_EQ(result.restarts, 1);
  EXPECT_GE(result.checkpoints_completed, 1);
  EXPECT_EQ(CommittedLines(out), ExpectedLines(2 * kBatches * kRows));
}

TEST(CheckpointTest, EveryCheckpointIsAConsistentCut) {
  floe::testing::TempDir dir;
  std::string checkpoints = (dir.path() / "checkpoints").string();
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 15,
                         .checkpoint_dir = checkpoints,
                         .checkpoints_retained = 1000});
  // Counts its rows; the count is its state. Behind a hash exchange it reads both source
  // subtasks, so its count only matches the sources' positions if the barriers were aligned.
  class Counter : public Operator {
   public:
    Status ProcessBatch(int, RecordBatch batch, Output&) override {
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      count_ += batch.num_rows();
      return {};
    }
    Result<std::vector<std::string>> SnapshotState(int64_t, Output&) override {
      return std::vector<std::string>{std::to_string(count_)};
    }
    Status NotifyCheckpointComplete(int64_t) override {
      ++*completed_;
      return {};
    }

    std::atomic<int>* completed_;
    int64_t count_ = 0;
  };
  std::atomic<int> completed = 0;
  DataStream rows = env.FromSource(GatedRows([&] { return completed.load() > 1; }), "rows");
  rows.KeyBy({"g"}).SinkTo(
      "count",
      [&completed](int) -> Result<std::unique_ptr<Operator>> {
        auto counter = std::make_unique<Counter>();
        counter->completed_ = &completed;
        return counter;
      },
      3);
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("cut"));
  ASSERT_GE(result.checkpoints_completed, 1);

  io::LocalFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto storage, CheckpointStorage::Open(io, checkpoints, "cut", 1000));
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(checkpoints) / "cut")) {
    FLOE_ASSERT_OK_AND_ASSIGN(CompletedCheckpoint checkpoint, storage->Load(entry.path().string()));
    ASSERT_EQ(checkpoint.operators.at("count").subtasks.size(), 3u);
    ASSERT_EQ(checkpoint.operators.at("rows").subtasks.size(), 2u);
    ASSERT_EQ(checkpoint.operators.at("rows#enumerator").subtasks.size(), 1u);
    int64_t counted = 0;
    for (const auto& entries : checkpoint.operators.at("count").subtasks) {
      ASSERT_EQ(entries.size(), 1u);
      counted += std::stoll(entries[0]);
    }
    // The source's state lists the batches it has yet to emit.
    int64_t unread = 0;
    for (const auto& entries : checkpoint.operators.at("rows").subtasks) unread += entries.size();
    EXPECT_EQ(counted + unread * kRows, kBatches * kRows) << entry.path();
    ++checked;
  }
  EXPECT_EQ(checked, result.checkpoints_completed);
}

TEST(CheckpointTest, AFreshEnvironmentResumesFromTheLatestCheckpoint) {
  floe::testing::TempDir dir;
  fs::path out = dir.path() / "out";
  fs::create_directories(out);
  ExecutionConfig config{.parallelism = 2,
                         .checkpoint_interval_ms = 20,
                         .checkpoint_dir = (dir.path() / "checkpoints").string()};
  std::atomic<int> completed = 0;
  {
    StreamEnvironment env(config);
    DataStream rows = env.FromSource(GatedRows([&] { return completed.load() > 0; }), "rows");
    DataStream probed = rows.Transform("probe", RowSchema(), Probe(completed));
    DataStream mapped = probed.Transform(
        "map", RowSchema(), SlowMap([&](int, int64_t) { return completed.load() > 0; }));
    mapped.SinkTo("sink", TwoPhaseSinkFactory(out));
    auto result = env.Execute("resume");
    ASSERT_FALSE(result.has_value());
    EXPECT_NE(result.error().message().find("injected failure"), std::string::npos);
  }
  ASSERT_GT(completed.load(), 0);
  EXPECT_LT(CommittedLines(out).size(), static_cast<size_t>(kBatches * kRows));
  std::atomic<bool> restored = false;
  StreamEnvironment env(config);
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows");
  DataStream probed = rows.Transform("probe", RowSchema(), Probe(completed));
  class RestoreProbe : public Operator {
   public:
    explicit RestoreProbe(std::atomic<bool>& restored) : restored_(restored) {}
    Status Open(const OperatorContext& context) override {
      if (context.restored_checkpoint_id) restored_ = true;
      return {};
    }
    Status ProcessBatch(int, RecordBatch batch, Output& output) override {
      return output.Emit(std::move(batch));
    }

   private:
    std::atomic<bool>& restored_;
  };
  DataStream mapped =
      probed.Transform("map", RowSchema(), [&](int) -> Result<std::unique_ptr<Operator>> {
        return std::make_unique<RestoreProbe>(restored);
      });
  mapped.SinkTo("sink", TwoPhaseSinkFactory(out));
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("resume"));
  EXPECT_TRUE(restored.load());
  EXPECT_EQ(result.restarts, 0);
  EXPECT_EQ(CommittedLines(out), ExpectedLines(kBatches * kRows));
}

TEST(CheckpointTest, SavepointRestoresAtAnotherParallelism) {
  floe::testing::TempDir dir;
  fs::path out = dir.path() / "out";
  fs::create_directories(out);
  std::string checkpoints = (dir.path() / "checkpoints").string();
  std::string savepoint;
  {
    // No periodic checkpoints: nothing may commit after the savepoint, which the restored job
    // replays.
    StreamEnvironment env({.parallelism = 2, .checkpoint_dir = checkpoints});
    std::atomic<int64_t> seen = 0;
    std::atomic<bool> taken_flag = false;
    DataStream rows = env.FromSource(GatedRows([&] { return taken_flag.load(); }), "rows");
    DataStream counted =
        rows.Transform("map", RowSchema(),
                       Lambda([&](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
                         std::this_thread::sleep_for(std::chrono::milliseconds(1));
                         seen += batch.num_rows();
                         return batch;
                       }));
    counted.SinkTo("sink", TwoPhaseSinkFactory(out));
    std::thread client([&] {
      while (seen.load() < kBatches * kRows / 4)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      auto taken = env.TriggerSavepoint((dir.path() / "savepoint").string());
      taken_flag = true;
      if (taken) savepoint = *taken;
      EXPECT_TRUE(taken.has_value()) << taken.error().ToString();
      env.Cancel();
    });
    auto result = env.Execute("rescale");
    client.join();
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().kind(), ErrorKind::kCancelled);
  }
  ASSERT_FALSE(savepoint.empty());
  StreamEnvironment env(
      {.parallelism = 3, .checkpoint_dir = checkpoints, .restore_from = savepoint});
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows");
  DataStream mapped = rows.Transform("map", RowSchema(), SlowMap(nullptr));
  mapped.SinkTo("sink", TwoPhaseSinkFactory(out));
  FLOE_ASSERT_OK(env.Execute("rescale"));
  EXPECT_EQ(CommittedLines(out), ExpectedLines(kBatches * kRows));
}

// A source in the FLIP-27 style: the enumerator hands out batch indices one per request (its
// state: those not yet handed out); a reader asks for the next one when it has none (its state:
// the ones it holds). Splits in flight during a checkpoint must land in exactly one snapshot.
class SplitSource : public Source {
 public:
  explicit SplitSource(std::vector<RecordBatch> batches)
      : batches_(std::make_shared<std::vector<RecordBatch>>(std::move(batches))) {}
  BatchSchemaPtr schema() const override { return RowSchema(); }
  bool bounded() const override { return true; }

  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override {
    class Enumerator : public SplitEnumerator {
     public:
      explicit Enumerator(int64_t count) : count_(count) {}
      Status Start(SplitEnumeratorContext& context, std::optional<std::string> state) override {
        context_ = &context;
        if (!state) {
          for (int64_t i = 0; i < count_; ++i) unassigned_.push_back(i);
          return {};
        }
        std::istringstream in(*state);
        for (int64_t i; in >> i;) unassigned_.push_back(i);
        return {};
      }
      Status HandleSplitRequest(int subtask) override {
        if (unassigned_.empty()) {
          context_->SignalNoMoreSplits(subtask);
        } else {
          context_->AssignSplits(subtask, {std::any(unassigned_.front())});
          unassigned_.pop_front();
        }
        return {};
      }
      Result<std::string> SnapshotState(int64_t) override {
        std::string state;
        for (int64_t i : unassigned_) state += std::to_string(i) + " ";
        return state;
      }

     private:
      int64_t count_;
      SplitEnumeratorContext* context_ = nullptr;
      std::deque<int64_t> unassigned_;
    };
    return std::make_unique<Enumerator>(static_cast<int64_t>(batches_->size()));
  }

  Result<std::unique_ptr<SourceReader>> CreateReader(int) override {
    class Reader : public SourceReader {
     public:
      explicit Reader(std::shared_ptr<std::vector<RecordBatch>> batches)
          : batches_(std::move(batches)) {}
      Status Open(const OperatorContext& context, SourceReaderContext& reader_context) override {
        reader_context_ = &reader_context;
        for (const std::string& entry : context.restored_state)
          splits_.push_back(std::stoll(entry));
        return {};
      }
      void AddSplits(std::vector<std::any> splits) override {
        for (std::any& split : splits) splits_.push_back(std::any_cast<int64_t>(split));
        asked_ = false;
      }
      void NotifyNoMoreSplits() override { no_more_ = true; }
      Result<PollStatus> PollNext(Output& output) override {
        if (!splits_.empty()) {
          FLOE_RETURN_IF_ERROR(output.Emit((*batches_)[splits_.front()]));
          splits_.pop_front();
          return PollStatus::kMoreAvailable;
        }
        if (no_more_) return PollStatus::kEnd;
        if (!asked_) {
          asked_ = true;
          reader_context_->RequestSplit();
        }
        return PollStatus::kNothingNow;
      }
      Result<std::vector<std::string>> SnapshotState(int64_t) override {
        std::vector<std::string> state;
        for (int64_t split : splits_) state.push_back(std::to_string(split));
        return state;
      }

     private:
      std::shared_ptr<std::vector<RecordBatch>> batches_;
      SourceReaderContext* reader_context_ = nullptr;
      std::deque<int64_t> splits_;
      bool asked_ = false;
      bool no_more_ = false;
    };
    return std::make_unique<Reader>(batches_);
  }

 private:
  std::shared_ptr<std::vector<RecordBatch>> batches_;
};

TEST(CheckpointTest, SplitsInFlightAreNeitherLostNorReadTwice) {
  floe::testing::TempDir dir;
  fs::path out = dir.path() / "out";
  fs::create_directories(out);
  StreamEnvironment env({.parallelism = 3,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (dir.path() / "checkpoints").string(),
                         .restart = {.max_attempts = 3, .delay_ms = 0}});
  std::atomic<int> completed = 0;
  std::atomic<int> failures = 0;
  std::atomic<int> completed_at_failure = 0;
  auto source = std::make_shared<testing::GatedSource>(
      std::make_shared<SplitSource>(testing::MakeBatches(kBatches, kRows)), kBatches / 2 / 3,
      [&] { return completed.load() > 0; });
  DataStream rows = env.FromSource(source, "splits");
  DataStream probed = rows.Transform("probe", RowSchema(), Probe(completed));
  DataStream mapped = probed.Transform(
      "map", RowSchema(), SlowMap([&](int subtask, int64_t) {
        // Up to twice, each time once a checkpoint completed since the last failure.
        int now = completed.load();
        if (subtask != 1 || now <= completed_at_failure.load() || failures.load() >= 2)
          return false;
        completed_at_failure = now;
        ++failures;
        return true;
      }));
  mapped.Rebalance().SinkTo("sink", TwoPhaseSinkFactory(out), 2);
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("splits"));
  EXPECT_GE(result.restarts, 1);
  EXPECT_EQ(result.restarts, failures.load());
  EXPECT_EQ(CommittedLines(out), ExpectedLines(kBatches * kRows));
}

TEST(CheckpointTest, SavepointsNeedARunningStreamingJob) {
  StreamEnvironment env;
  auto taken = env.TriggerSavepoint("/tmp/nowhere");
  ASSERT_FALSE(taken.has_value());
  EXPECT_EQ(taken.error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::stream

namespace floe::stream {
namespace {

// A bounded streaming job ends with a final checkpoint behind all data: running it again with the
// same checkpoint folder (a crash after the last commit, before the process exited) restores the
// sources as done and commits nothing twice. With an interval longer than the job, that final
// checkpoint is the only one.
TEST(CheckpointTest, ARestartAfterTheFinalCommitAddsNothing) {
  for (int64_t interval_ms : {int64_t{15}, int64_t{3'600'000}}) {
    SCOPED_TRACE(interval_ms);
    floe::testing::TempDir dir;
    fs::path out = dir.path() / "out";
    fs::create_directories(out);
    std::string checkpoints = (dir.path() / "checkpoints").string();
    ExecutionConfig config{
        .parallelism = 2, .checkpoint_interval_ms = interval_ms, .checkpoint_dir = checkpoints};
    for (int run = 0; run < 3; ++run) {
      StreamEnvironment env(config);
      DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows");
      DataStream mapped = rows.Transform("map", RowSchema(), SlowMap({}));
      mapped.KeyBy({"g"}).SinkTo("sink", TwoPhaseSinkFactory(out), 3);
      FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("final"));
      EXPECT_GE(result.checkpoints_completed, 1) << run;
      EXPECT_EQ(CommittedLines(out), ExpectedLines(kBatches * kRows)) << run;

      // The latest checkpoint has every source subtask done: no batches left to emit.
      io::LocalFileIO io;
      FLOE_ASSERT_OK_AND_ASSIGN(auto storage, CheckpointStorage::Open(io, checkpoints, "final", 1));
      FLOE_ASSERT_OK_AND_ASSIGN(std::optional<CompletedCheckpoint> latest, storage->LoadLatest());
      ASSERT_TRUE(latest.has_value());
      for (const auto& entries : latest->operators.at("rows").subtasks) {
        EXPECT_TRUE(entries.empty());
      }
    }
  }
}

// Reader 0 emits one batch and ends; reader 1 emits one batch, waits until `gate` says so, emits
// another and ends. Records the number of completed checkpoints when reader 0 ended.
class UnevenSource : public Source {
 public:
  UnevenSource(std::function<int()> completed, std::function<bool(int ended_at)> gate)
      : completed_(std::move(completed)), gate_(std::move(gate)) {}
  BatchSchemaPtr schema() const override { return RowSchema(); }
  bool bounded() const override { return true; }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override {
    return CollectionSource(RowSchema(), {}).CreateEnumerator();
  }
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask) override {
    class Reader : public SourceReader {
     public:
      Reader(UnevenSource& source, int subtask) : source_(source), subtask_(subtask) {}
      Status Open(const OperatorContext&, SourceReaderContext&) override { return {}; }
      void AddSplits(std::vector<std::any>) override {}
      void NotifyNoMoreSplits() override {}
      Result<PollStatus> PollNext(Output& output) override {
        if (emitted_ == 0) {
          FLOE_RETURN_IF_ERROR(output.Emit(testing::MakeRows(subtask_ * kRows, kRows)));
          ++emitted_;
          if (subtask_ == 0) {
            source_.ended_at_ = source_.completed_();
            return PollStatus::kEnd;
          }
          return PollStatus::kMoreAvailable;
        }
        if (emitted_ == 2) return PollStatus::kEnd;
        const int ended_at = source_.ended_at_.load();
        if (ended_at < 0 || !source_.gate_(ended_at)) return PollStatus::kNothingNow;
        FLOE_RETURN_IF_ERROR(output.Emit(testing::MakeRows(2 * kRows, kRows)));
        ++emitted_;
        return PollStatus::kMoreAvailable;
      }
      Result<std::vector<std::string>> SnapshotState(int64_t) override {
        return std::vector<std::string>{};
      }

     private:
      UnevenSource& source_;
      int subtask_;
      int emitted_ = 0;
    };
    return std::make_unique<Reader>(*this, subtask);
  }

 private:
  std::function<int()> completed_;
  std::function<bool(int)> gate_;
  std::atomic<int> ended_at_ = -1;
};

// Flink's FLIP-147: a source subtask that ends long before the others must not stop the job's
// checkpoints. Its rows are committed by the next checkpoint, checkpoints go on completing while
// the other subtask runs, and the job still ends with a final checkpoint behind all rows.
TEST(CheckpointTest, CheckpointsGoOnAfterOneSourceSubtaskEnds) {
  floe::testing::TempDir dir;
  fs::path out = dir.path() / "out";
  fs::create_directories(out);
  std::atomic<int> completed = 0;
  auto source = std::make_shared<UnevenSource>(
      [&] { return completed.load(); },
      [&](int ended_at) { return completed.load() >= ended_at + 4; });
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (dir.path() / "checkpoints").string()});
  DataStream rows = env.FromSource(source, "uneven");
  DataStream mapped = rows.Transform("map", RowSchema(), SlowMap({}));
  DataStream probed = mapped.Rebalance().Transform("probe", RowSchema(), Probe(completed), 1);
  probed.SinkTo("sink", TwoPhaseSinkFactory(out), 1);
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("uneven"));
  EXPECT_GE(result.checkpoints_completed, 5);
  EXPECT_EQ(CommittedLines(out), ExpectedLines(3 * kRows));
  // Every row was committed by a checkpoint, none at the end of input; reader 0's row 0 in an
  // earlier commit than the rows reader 1 emitted after four more checkpoints (three or more
  // checkpoints later, whatever the timing of the barriers).
  std::map<int64_t, std::string> commits;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().stem().string();
    ASSERT_TRUE(name.starts_with("commit-")) << name;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    commits[std::stoll(name.substr(7))] += text.str();
  }
  int64_t first_row_commit = -1, last_row_commit = -1;
  for (const auto& [id, text] : commits) {
    if (text.find("+I[0, 0, r0]") != std::string::npos) first_row_commit = id;
    if (text.find(fmt::format("+I[{0}, {1}, r{0}]", 2 * kRows, 2 * kRows % 7)) !=
        std::string::npos) {
      last_row_commit = id;
    }
  }
  ASSERT_GT(first_row_commit, 0);
  EXPECT_GE(last_row_commit, first_row_commit + 3);
}

// Batch mode takes no checkpoints and ends its sources at once.
TEST(CheckpointTest, BatchModeEndsWithoutACheckpoint) {
  floe::testing::TempDir dir;
  fs::path out = dir.path() / "out";
  fs::create_directories(out);
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 2});
  DataStream rows = env.FromSource(RowsSource(kBatches, kRows), "rows");
  rows.KeyBy({"g"}).SinkTo("sink", TwoPhaseSinkFactory(out), 3);
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("batch"));
  EXPECT_EQ(result.checkpoints_completed, 0);
  EXPECT_EQ(CommittedLines(out), ExpectedLines(kBatches * kRows));
}

// A drain ends an unbounded job as if its input had ended: what the source emitted is committed,
// under the final checkpoint when the job checkpoints, by the sink's end of input when it does
// not, and Execute succeeds.
TEST(CheckpointTest, ADrainCommitsWhatAnEndlessSourceEmitted) {
  for (bool checkpoints : {true, false}) {
    SCOPED_TRACE(checkpoints ? "with checkpoints" : "without checkpoints");
    floe::testing::TempDir dir;
    fs::path out = dir.path() / "out";
    fs::create_directories(out);
    ExecutionConfig config{.parallelism = 1};
    if (checkpoints) {
      config.checkpoint_interval_ms = 3'600'000;  // none but the final one
      config.checkpoint_dir = (dir.path() / "checkpoints").string();
    }
    StreamEnvironment env(config);
    std::atomic<int64_t> seen = 0;
    DataStream rows = env.FromSource(std::make_shared<testing::EndlessSource>(10), "endless");
    DataStream counted =
        rows.Transform("count", RowSchema(),
                       Lambda([&](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
                         seen += batch.num_rows();
                         return batch;
                       }));
    counted.SinkTo("sink", TwoPhaseSinkFactory(out));
    std::thread drainer([&] {
      while (seen.load() < 1000) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      env.Drain();
    });
    auto result = env.Execute("drained");
    drainer.join();
    ASSERT_TRUE(result.has_value()) << result.error().message();
    EXPECT_EQ(result->checkpoints_completed, checkpoints ? 1 : 0);
    std::vector<std::string> committed = CommittedLines(out);
    EXPECT_GE(committed.size(), 1000u);
    EXPECT_EQ(static_cast<int64_t>(committed.size()), seen.load());
    EXPECT_EQ(committed, ExpectedLines(static_cast<int64_t>(committed.size())));
  }
}

}  // namespace
}  // namespace floe::stream
