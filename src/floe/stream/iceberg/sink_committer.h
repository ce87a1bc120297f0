#pragma once

// The committer operator of the IcebergSink (parallelism 1): collects the files its writers hand
// over per checkpoint, keeps them in its state, and commits them to the table when the checkpoint
// completes (phase two of the two-phase commit), one snapshot per checkpoint and in checkpoint
// order: a merge append, a dynamic partition replace (overwrite mode), or a row delta when the
// checkpoint has delete files; all three merge manifests past `commit.manifest.min-count-to-merge`.
//
// State: at SnapshotState(N) the files of every checkpoint not committed yet are written once into
// temporary manifests under the table's metadata folder (as Flink's sink does), and the state holds
// one entry per such checkpoint naming its manifests, its checkpoint id, the sink id and the run
// id. Every snapshot it commits carries `floe.sink-id`, `floe.run-id`, `floe.checkpoint-id`,
// `floe.job-name` and the positions of the sources upstream at that checkpoint
// (`floe.source-position.<source>[.<subtask>]`) in its summary. After a restore it walks the
// branch's snapshot ancestry for the highest checkpoint id committed by the restored run of this
// sink and commits only the restored checkpoints above it, at once (the restored checkpoint is
// complete): no duplicate when a commit succeeded but its response was lost, no loss when the job
// failed before the notification. A new run id then starts, so checkpoint ids of a later job (which
// may start low again) never look committed.
//
// Checkpoints without files commit nothing, except every max-continuous-empty-commits-th empty one
// in a row, which commits an empty append so that the table records the sink's progress. At the
// end of the input (Finish) everything left is committed with checkpoint id
// kEndOfInputCheckpointId and the final source positions.
//
// Metrics (operator-wide, "<operator>.<name>"): committedDataFilesCount,
// committedDataFilesRecordCount, committedDataFilesByteCount, committedDeleteFilesCount,
// committedDeleteFilesRecordCount, committedDeleteFilesByteCount, lastCommitDurationMs,
// lastSuccessfulCommitTimestampMs (epoch ms), lastCommittedCheckpointId.
//
// Sources whose readers report offset ranges (source_offsets.h: the Kafka source in a consumer
// group) are committed as one map, `floe.source-offsets.<source>`, the offsets map of the snapshot
// committed on with this commit's ranges applied at each attempt; a range that does not start at
// the table's offset fences the commit (docs/scale-out.md). A checkpoint with ranges commits even
// without files, so that the offsets always move on with the reads. Metric fencedCommits: the
// restored checkpoints dropped so.
//
// What can go wrong: a message that is not a SinkWriteResult, unreadable or malformed state
// entries and temporary manifests (naming them), commit failures (a conflicting commit, or an
// unknown commit state: the job fails and its restore decides from the table what committed).

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "floe/manifest/data_file.h"
#include "floe/stream/iceberg/sink_options.h"
#include "floe/stream/iceberg/sink_writer.h"
#include "floe/stream/operator.h"

namespace floe::stream {

// The summary properties of the sink's snapshots.
inline constexpr std::string_view kSinkIdProperty = "floe.sink-id";
inline constexpr std::string_view kRunIdProperty = "floe.run-id";
inline constexpr std::string_view kCheckpointIdProperty = "floe.checkpoint-id";
inline constexpr std::string_view kJobNameProperty = "floe.job-name";
// Followed by the key of a source position (stream_element.h's SourcePositions): the position of
// every source upstream of the sink at the checkpoint the snapshot commits.
inline constexpr std::string_view kSourcePositionPrefix = "floe.source-position.";
// Followed by a source's name: the offset of every partition of a source whose readers report
// offset ranges (source_offsets.h), merged over the commits of every process writing the table.
inline constexpr std::string_view kSourceOffsetsPrefix = "floe.source-offsets.";

// The sink id when the user sets none: stable for a job name and operator name.
std::string DefaultSinkId(std::string_view job_name, std::string_view operator_name);

class IcebergSinkCommitter : public Operator {
 public:
  explicit IcebergSinkCommitter(SinkSpec spec);
  ~IcebergSinkCommitter() override;

  Status Open(const OperatorContext& context) override;
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override;
  Status ProcessMessage(int input, Message message, Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id, Output& output) override;
  // Also records the source positions the barrier carries with the checkpoint's files.
  Result<std::vector<std::string>> SnapshotCheckpoint(const CheckpointBarrier& barrier,
                                                      Output& output) override;
  Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  Status Finish(Output& output) override;
  // Also records the final source positions the ends carry with the last commit.
  Status FinishInput(const EndOfInput& end, Output& output) override;

  // The highest checkpoint id the snapshots of branch's ancestry record for sink_id and run_id.
  static std::optional<int64_t> MaxCommittedCheckpointId(const TableMetadata& metadata,
                                                         std::string_view branch,
                                                         std::string_view sink_id,
                                                         std::string_view run_id);

  // The snapshots committed since the last call, oldest first (WriteRows' result stream).
  std::vector<SnapshotPtr> TakeCommitted();
  const SinkOptions& options() const { return options_; }
  const std::vector<std::string>& equality_columns() const { return spec_.equality_columns; }
  // The table this committer commits to (after Open).
  const std::shared_ptr<table::Table>& table() const { return table_; }

  struct Pending {
    std::string run_id;
    std::vector<manifest::DataFile> data_files;
    std::vector<manifest::DataFile> delete_files;
    std::set<std::string> referenced_data_files;
    std::vector<manifest::ManifestFile> manifests;  // written once, at the first snapshot
    SourcePositions source_positions;               // at the checkpoint's barrier
    bool empty() const { return data_files.empty() && delete_files.empty(); }
  };

 private:
  Status Restore(const std::vector<std::string>& entries);
  // Moves the files received since the last checkpoint into pending_[checkpoint_id].
  void TakeCurrent(int64_t checkpoint_id, const std::shared_ptr<const SourcePositions>& positions);
  Status WriteManifests(int64_t checkpoint_id, Pending& pending);
  Status CommitUpTo(int64_t checkpoint_id);
  Status CommitTogether(int64_t checkpoint_id);
  Status Commit(int64_t checkpoint_id, Pending& pending);
  // A commit fenced off (docs/scale-out.md): an error, or after a restore nothing (the
  // checkpoint's files are dropped, as the partitions' offsets moved on without them).
  Status Fenced(int64_t checkpoint_id, Pending& pending, const Status& error);

  SinkSpec spec_;
  std::string name_;
  std::string job_name_;
  std::string sink_id_;
  std::string run_id_;
  MetricGroup* metrics_ = nullptr;
  std::shared_ptr<table::Table> table_;
  SinkOptions options_;
  Pending current_;                     // files received since the last snapshot
  std::map<int64_t, Pending> pending_;  // by checkpoint id, not committed yet
  int continuous_empty_ = 0;
  bool fenced_ = false;       // the last commit failed its fence
  bool drop_fenced_ = false;  // while restoring: fenced checkpoints are dropped, not errors
  std::vector<SnapshotPtr> committed_;
};

}  // namespace floe::stream
