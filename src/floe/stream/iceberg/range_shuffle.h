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
// the samples into a global RangeAssignment and publishes it, and the channel selectors route the
// rows that follow by it (the next checkpoint interval). Before the first assignment exists, rows
// go to the writers round-robin, as in Flink.
//
// floe runs a job in one process, so RangeStatistics is one object shared by the statistics
// subtasks and the selectors (the role of Flink's operator coordinator), guarded by a mutex. It
// survives an in-process restart with the job graph; across a process restart the statistics
// subtask 0 keeps the assignment in use in its operator state, and whichever subtask gets that
// entry back gives it to RangeStatistics at Open. RangeStatistics keeps the assignment of the
// highest checkpoint id it has seen, so the order in which subtasks restore and report does not
// matter; reports of an interrupted checkpoint are dropped once a later one is aggregated. The
// assignment decides only which writer writes a row, never whether a row is written.
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
  RangeStatistics(SortKey sort_key, int writers)
      : sort_key_(std::move(sort_key)), writers_(writers) {}

  const SortKey& sort_key() const { return sort_key_; }
  int writers() const { return writers_; }

  // Subtask `subtask` of `parallelism` statistics subtasks saw `sample` up to checkpoint_id. A
  // subtask reporting the same checkpoint again (after a restart) replaces its report.
  void Report(int64_t checkpoint_id, int subtask, int parallelism, std::vector<WeightedKey> sample);
  // An assignment from operator state; kept when it is newer than the current one.
  void Restore(std::shared_ptr<const RangeAssignment> assignment);
  // The assignment in use; nullptr before the first statistics.
  std::shared_ptr<const RangeAssignment> Current() const;

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
};

class RangeStatisticsOperator : public Operator {
 public:
  static constexpr size_t kSampleSize = 4096;

  RangeStatisticsOperator(std::shared_ptr<RangeStatistics> statistics, SchemaPtr schema);
  ~RangeStatisticsOperator() override;

  Status Open(const OperatorContext& context) override;
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id, Output& output) override;

 private:
  std::shared_ptr<RangeStatistics> statistics_;
  SchemaPtr schema_;
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
      std::shared_ptr<RangeStatistics> statistics, SchemaPtr schema, BatchSchemaPtr batch_schema);
  ~RangeChannelSelector() override;

  Status SelectChannels(const RecordBatch& batch, int num_channels,
                        std::vector<int32_t>& channels) override;

 private:
  // Writers of a key id under the current assignment, and the next of them for a spread key.
  struct Route {
    int first = -1;
    int last = -1;
    int next = 0;
  };
  RangeChannelSelector() = default;

  std::shared_ptr<RangeStatistics> statistics_;
  SchemaPtr schema_;
  BatchSchemaPtr batch_schema_;
  std::unique_ptr<table::Partitioner> partitioner_;
  std::shared_ptr<const RangeAssignment> assignment_;
  std::vector<Route> routes_;  // by key id
  std::vector<uint32_t> key_of_row_;
  uint64_t next_round_robin_ = 0;
};

}  // namespace floe::stream
