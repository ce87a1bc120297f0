#pragma once

// The DataStream API: build a job graph with a StreamEnvironment, then Execute it.
//
//   StreamEnvironment env({.parallelism = 4, .checkpoint_interval_ms = 10'000,
//                          .checkpoint_dir = "/var/floe/checkpoints"});
//   DataStream rows = env.FromSource(source, "events");
//   IcebergSink::ForRows(rows).TableLoader(loader).Append();   // (stream/iceberg)
//   FLOE_ASSIGN_OR_RETURN(JobResult result, env.Execute("events-to-iceberg"));
//
// Streaming mode runs until every source ends (never, for unbounded ones) or the job is cancelled;
// batch mode needs bounded sources and takes no checkpoints. A job restarted with the same name and
// checkpoint_dir resumes from its latest complete checkpoint; restore_from picks a savepoint or a
// checkpoint instead. Graph mistakes (a cycle is impossible by construction; an unknown key column,
// an unbounded source in batch mode, checkpoints without a folder) fail Execute with a clear error.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "floe/stream/exchange.h"
#include "floe/stream/metrics.h"
#include "floe/stream/operator.h"
#include "floe/stream/source.h"

namespace floe::stream {

class JobGraph;
namespace runtime {
class JobRun;
}

enum class RuntimeMode { kStreaming, kBatch };

struct RestartStrategy {
  int max_attempts = 0;  // 0: a failure ends the job
  int64_t delay_ms = 1000;
};

struct ExecutionConfig {
  RuntimeMode mode = RuntimeMode::kStreaming;
  int parallelism = 1;                 // default parallelism of operators that do not set theirs
  int64_t checkpoint_interval_ms = 0;  // execution.checkpointing.interval; 0: no checkpoints
  std::string checkpoint_dir;          // checkpoints go to <checkpoint_dir>/<job name>/
  int checkpoints_retained = 1;
  RestartStrategy restart;
  std::optional<std::string> restore_from;  // a savepoint or checkpoint folder
  int channel_capacity = 8;                 // batches buffered per channel before the sender blocks
};

struct JobResult {
  std::string job_name;
  int64_t checkpoints_completed = 0;
  int restarts = 0;
  std::map<std::string, int64_t, std::less<>> metrics;  // MetricGroup::Snapshot at the end
};

class StreamEnvironment;

// A handle on one operator's output while the graph is being built. Copyable.
class DataStream {
 public:
  const BatchSchemaPtr& schema() const { return schema_; }
  int parallelism() const;
  StreamEnvironment& environment() const { return *env_; }

  // The exchange the next operator reads this stream through.
  DataStream Forward() const;
  DataStream Rebalance() const;
  DataStream KeyBy(std::vector<std::string> key_columns) const;
  DataStream Broadcast() const;
  DataStream PartitionCustom(ChannelSelectorFactory selector) const;

  // A new operator reading this stream. parallelism 0: the environment's default.
  DataStream Transform(std::string name, BatchSchemaPtr output_schema, OperatorFactory factory,
                       int parallelism = 0) const;
  // An operator with several inputs: this stream is input 0, others[i] is input i + 1 (the index
  // ProcessBatch and EndInput receive). Checkpoint barriers are aligned over all of them. Every
  // stream must come from this stream's environment.
  DataStream TransformWith(const std::vector<DataStream>& others, std::string name,
                           BatchSchemaPtr output_schema, OperatorFactory factory,
                           int parallelism = 0) const;
  // The rows of this stream and of `others` in one stream (an operator that passes every batch
  // on), with this stream's schema. kInvalidArgument when a schema differs in its column types.
  Result<DataStream> Union(const std::vector<DataStream>& others, std::string name,
                           int parallelism = 0) const;
  // An operator with no output (a sink's last operator).
  void SinkTo(std::string name, OperatorFactory factory, int parallelism = 0) const;

  // The node this stream is the output of, and the exchange set on it (runtime use).
  int node_id() const { return node_id_; }
  const Exchange& exchange() const { return exchange_; }

 private:
  friend class StreamEnvironment;
  DataStream(StreamEnvironment* env, int node_id, BatchSchemaPtr schema, Exchange exchange);
  DataStream WithExchange(Exchange exchange) const;
  // The exchange a new reader of this stream uses: the one set, else forward when the
  // parallelism matches and rebalance when it does not.
  Exchange ExchangeFor(int reader_parallelism) const;

  StreamEnvironment* env_;
  int node_id_;
  BatchSchemaPtr schema_;
  Exchange exchange_;
  bool exchange_set_ = false;
};

// Collects every batch a stream carries, for tests and the SQL client. Thread-safe.
class CollectedBatches;

class StreamEnvironment {
 public:
  explicit StreamEnvironment(ExecutionConfig config = {});
  ~StreamEnvironment();
  StreamEnvironment(const StreamEnvironment&) = delete;
  StreamEnvironment& operator=(const StreamEnvironment&) = delete;

  const ExecutionConfig& config() const { return config_; }

  DataStream FromSource(std::shared_ptr<Source> source, std::string name, int parallelism = 0);
  // A sink that keeps all batches in memory (bounded inputs) and/or prints them.
  std::shared_ptr<CollectedBatches> Collect(const DataStream& stream, std::string name);

  // Runs the job to its end.
  Result<JobResult> Execute(std::string job_name);
  // From another thread: stop the job (Execute returns kCancelled; a Cancel made before Execute
  // starts holds for that Execute), or, while Execute runs, take a savepoint into `folder` and
  // return its path once it is complete.
  void Cancel();
  // From another thread: the sources stop reading where they are and the job ends as a bounded
  // job does, with its final checkpoint and the sinks' last commit; Execute then succeeds. Holds
  // for the Execute running now or the next one. Returns at once.
  void Drain();
  Result<std::string> TriggerSavepoint(std::string folder);

  JobGraph& graph() { return *graph_; }
  // The counters of the Execute running now (or of the last one), readable from any thread while
  // it runs: what a progress display shows.
  const MetricGroup& metrics() const { return metrics_; }

 private:
  friend class DataStream;
  int ResolveParallelism(int parallelism) const;

  ExecutionConfig config_;
  std::unique_ptr<JobGraph> graph_;
  std::atomic<bool> cancel_requested_{false};
  std::atomic<bool> drain_requested_{false};
  std::mutex run_mutex_;
  runtime::JobRun* run_ = nullptr;  // the attempt running now, guarded by run_mutex_
  MetricGroup metrics_;
};

}  // namespace floe::stream
