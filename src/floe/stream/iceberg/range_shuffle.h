#pragma once

// The runtime side of the IcebergSink's range distribution (the Flink sink's statistics shuffle):
//
//   input -> RangeStatisticsOperator (one per input subtask, forward) -> RangeChannelSelector
//         -> writers
//
// Each statistics subtask passes its batches through and keeps a reservoir sample of the sort
// keys of the rows it saw since the last checkpoint (kSampleSize keys, bounded memory whatever
// the key cardinality). At checkpoint N it reports the sample, weighted by the rows it stands for,
// to the RangeStatistics of the sink; when every subtask has reported N, RangeStatistics merges
// the samples into a global RangeAssignment.
//
// Every statistics subtask switches assignments at its barriers only, and all switch alike: at
// barrier N, before reporting N, a subtask pins the newest assignment, which is the one of
// checkpoint N-1 (the runtime triggers N only after N-1 is complete, so every subtask has
// reported N-1 by then, and N cannot be complete before this subtask reports it). Its channel
// selector routes the rows of the interval after barrier N by that pinned assignment, so within
// one checkpoint every writer gets one contiguous key range. Until the first assignment exists,
// rows go to the writers round-robin, as in Flink.
//
// floe runs a job in one process, so RangeStatistics is one object shared by the statistics
// subtasks and the selectors (the role of Flink's operator coordinator), guarded by a mutex; it
// survives an in-process restart with the job graph. Every statistics subtask keeps the
// assignment it pinned in its operator state. At Open (a restore) a subtask pins the newest
// assignment of its state entries, so the interval after the restored checkpoint is routed as it
// was in the run that took it; with a changed parallelism, subtasks that get no entry route their
// first interval round-robin. RangeStatistics keeps the assignment of the highest checkpoint id
// it has seen (aggregated or restored), and reports for a checkpoint not above it are dropped.
// The assignment decides only which writer writes a row, never whether a row is written.
//
// What can go wrong: a sort key that cannot be computed for the batch schema (Make, Open), a
// malformed state entry (Open, naming it).

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

#include "floe/spec/schema.h"
#include "floe/stream/exchange.h"
#include "floe/stream/iceberg/range_partitioner.h"
#include "floe/stream/operator.h"

namespace floe::table {
class Partitioner;
}

namespace floe::stream {

class RangeStatistics {
 public:
  // `subtasks`: the parallelism of the statistics operator (one pinned assignment each).
  RangeStatistics(SortKey sort_key, int writers, int subtasks)
      : sort_key_(std::move(sort_key)), writers_(writers), pinned_(static_cast<size_t>(subtasks)) {}

  const SortKey& sort_key() const { return sort_key_; }
  int writers() const { return writers_; }

  // Subtask `subtask` of `parallelism` statistics subtasks saw `sample` up to checkpoint_id. A
  // subtask reporting the same checkpoint again (after a restart) replaces its report.
  void Report(int64_t checkpoint_id, int subtask, int parallelism, std::vector<WeightedKey> sample);
  // An assignment from operator state; kept when it is newer than the current one.
  void Restore(std::shared_ptr<const RangeAssignment> assignment);
  // The newest assignment; nullptr before the first statistics.
  std::shared_ptr<const RangeAssignment> Current() const;
  // The assignment a statistics subtask routes its rows by (nullptr: round-robin).
  void Pin(int subtask, std::shared_ptr<const RangeAssignment> assignment);
  std::shared_ptr<const RangeAssignment> Pinned(int subtask) const;

 private:
  struct Reports {
    int parallelism = 0;
    std::map<int, std::vector<WeightedKey>> by_subtask;
  };
  void Install(std::shared_ptr<const RangeAssignment> assignment);

  const SortKey sort_key_;
  const int writers_;
  mutable std::mutex mutex_;
  std::map<int64_t, Reports> reports_;  // by checkpoint id, not complete yet
  std::shared_ptr<const RangeAssignment> current_;
  std::vector<std::shared_ptr<const RangeAssignment>> pinned_;  // by statistics subtask
};

class RangeStatisticsOperator : public Operator {
 public:
  static constexpr size_t kSampleSize = 4096;

  // batch_schema: the table's columns as a batch schema (with field ids); input batches have
  // those columns in order, under any names.
  RangeStatisticsOperator(std::shared_ptr<RangeStatistics> statistics, SchemaPtr schema,
                          BatchSchemaPtr batch_schema);
  ~RangeStatisticsOperator() override;

  Status Open(const OperatorContext& context) override;
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id, Output& output) override;

 private:
  std::shared_ptr<RangeStatistics> statistics_;
  SchemaPtr schema_;
  BatchSchemaPtr batch_schema_;
  int subtask_ = 0;
  int parallelism_ = 1;
  std::unique_ptr<table::Partitioner> partitioner_;
  std::vector<uint32_t> key_of_row_;
  std::vector<KeyTuple> sample_;
  uint64_t rows_seen_ = 0;
  std::mt19937_64 random_;
};

// Routes rows by the current RangeAssignment of a RangeStatistics (one per upstream subtask).
class RangeChannelSelector : public ChannelSelector {
 public:
  static Result<std::unique_ptr<RangeChannelSelector>> Make(
      std::shared_ptr<RangeStatistics> statistics, int subtask, SchemaPtr schema,
      BatchSchemaPtr batch_schema);
  ~RangeChannelSelector() override;

  Status SelectChannels(const RecordBatch& batch, int num_channels,
                        std::vector<int32_t>& channels) override;

 private:
  // Where the rows of a key id go under the current assignment; `sent` counts the rows of a split
  // key, to deal them out in proportion.
  struct KeyRoute {
    bool known = false;
    RangeAssignment::Route route;
    uint64_t sent = 0;
  };
  RangeChannelSelector() = default;

  std::shared_ptr<RangeStatistics> statistics_;
  int subtask_ = 0;
  SchemaPtr schema_;
  BatchSchemaPtr batch_schema_;
  std::unique_ptr<table::Partitioner> partitioner_;
  std::shared_ptr<const RangeAssignment> assignment_;
  std::vector<KeyRoute> routes_;  // by key id
  std::vector<uint32_t> key_of_row_;
  uint64_t next_round_robin_ = 0;
};

}  // namespace floe::stream
