#pragma once

// The committer operator of WriteRows (parallelism 1): one IcebergSinkCommitter per destination
// table, driven by hand, so that every table gets the IcebergSink's exactly-once scheme unchanged:
// temporary manifests per checkpoint in the operator state, the sink id, run id, checkpoint id and
// the positions of the sources upstream (`floe.source-position.<source>[.<subtask>]`, those of the
// last checkpoint a snapshot covers) in each snapshot summary, and on restore only the checkpoints
// the table's own history does not record as committed are committed.
//
// Triggering frequency: with a frequency d, a completed checkpoint commits only when d has passed
// since the last commit round; the checkpoints in between stay pending (in the state) and then
// commit together, one snapshot per table per round, tagged with the highest checkpoint id. Files
// are still closed at every checkpoint (the runtime's exactly-once needs nothing to stay open
// across a barrier), so choose a checkpoint interval close to d for larger files.
//
// State: each entry is {"table": "db.t", "entry": <the table committer's entry>}; on restore the
// entries are dealt to a committer per table, which commits what its table lacks at once.
//
// Output: one row per committed snapshot (CommittedSnapshotSchema): table, snapshot id, operation,
// summary (JSON object), manifest list, timestamp (epoch ms). Rows of commits made at a checkpoint
// notification are emitted before the next barrier (a notification cannot emit), those of the end
// of input at once.
//
// Metrics: "<operator>.catalogRequests" (table loads and commits), besides each table committer's
// own under "<operator> <table>".
//
// What can go wrong: the table committers' errors (malformed state, failed commits), a message
// that is not a DynamicWriteResult.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/stream/iceberg/sink_committer.h"
#include "floe/stream/iceberg/write_rows/write_rows_spec.h"
#include "floe/stream/operator.h"

namespace floe::stream {

// table string, snapshot_id long, operation string, summary string (JSON), manifest_list string,
// timestamp_ms long.
BatchSchemaPtr CommittedSnapshotSchema();

class DynamicCommitter : public Operator {
 public:
  explicit DynamicCommitter(WriteRowsSpec spec);
  ~DynamicCommitter() override;

  Status Open(const OperatorContext& context) override;
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override;
  Status ProcessMessage(int input, Message message, Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id, Output& output) override;
  // Hands the source positions the barrier carries to every table's committer.
  Result<std::vector<std::string>> SnapshotCheckpoint(const CheckpointBarrier& barrier,
                                                      Output& output) override;
  Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  Status Finish(Output& output) override;
  // Hands the final source positions to every table's committer for its last commit.
  Status FinishInput(const EndOfInput& end, Output& output) override;

 private:
  struct TableCommitter {
    std::unique_ptr<IcebergSinkCommitter> committer;
    CapturingOutput output;
    bool refresh = false;  // files arrived since the last commit round
  };
  Status RefreshIfWritten(TableCommitter& state);
  Result<TableCommitter*> CommitterFor(const std::string& table, const std::string& branch,
                                       const std::vector<std::string>& equality_fields, bool upsert,
                                       std::vector<std::string> restored);
  void CollectCommitted(const std::string& table, IcebergSinkCommitter& committer);
  Status EmitCommitted(Output& output);
  int64_t Now() const;

  WriteRowsSpec spec_;
  OperatorContext context_;
  std::string sink_id_;
  std::shared_ptr<catalog::Catalog> catalog_;
  std::map<std::string, std::unique_ptr<TableCommitter>, std::less<>> committers_;  // by table
  std::vector<std::pair<std::string, SnapshotPtr>> committed_;  // not emitted yet
  int64_t last_commit_ms_ = 0;
  int64_t catalog_requests_ = 0;  // table loads and commits (a commit's retries not counted)
};

}  // namespace floe::stream
