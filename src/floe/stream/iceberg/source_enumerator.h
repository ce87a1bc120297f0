#pragma once

// IcebergSource's split enumerator. Batch: plans the read once at Start and hands one split per
// request, then tells each reader there is no more. Streaming: plans the starting strategy's
// position at Start, then every monitor-interval (on Tick) refreshes the table and plans the
// snapshots committed since, in commit order, until end-snapshot-id when one is set.
//
// With a limit, every split goes to subtask 0 and the other readers end at once, so that one
// reader counts the job's rows and the limit holds for the job, whatever the parallelism.
//
// State (JSON): whether the start was planned, the last snapshot enumerated, the splits not yet
// assigned (iceberg_split.h). A split assigned after a checkpoint's enumerator snapshot is in the
// reader's snapshot of that checkpoint (source.h's valve), so none is lost or read twice.
//
// Errors: the table loader's, the planner's (source_planner.h), a malformed restored state
// (kInvalidArgument). A failed discovery fails the job, as the connector does by default.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "floe/stream/iceberg/source_planner.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/stream/source.h"

namespace floe::table {
class Table;
}

namespace floe::stream {

class IcebergSplitEnumerator final : public SplitEnumerator {
 public:
  IcebergSplitEnumerator(TableLoader loader, IcebergSourceOptions options, expr::ExprPtr filter);
  ~IcebergSplitEnumerator() override;

  Status Start(SplitEnumeratorContext& context, std::optional<std::string> restored_state) override;
  Status HandleSplitRequest(int subtask) override;
  Status Tick(int64_t now_ms) override;
  Result<std::string> SnapshotState(int64_t checkpoint_id) override;
  // The id of the last snapshot enumerated (decimal): every split of it and of the snapshots
  // before it has been handed out or is in the checkpoint.
  std::optional<std::string> Position() const override;

  // For tests and metrics: the last snapshot enumerated and the splits waiting for a reader.
  std::optional<int64_t> position() const { return position_; }
  size_t pending_splits() const { return pending_.size(); }

 private:
  Status Discover();
  void Assign();
  Status Restore(const std::string& state);

  TableLoader loader_;
  IcebergSourceOptions options_;
  SourcePlanner planner_;
  SplitEnumeratorContext* context_ = nullptr;
  std::shared_ptr<table::Table> table_;
  bool started_ = false;
  std::optional<int64_t> position_;
  bool finished_ = false;  // nothing more will be planned
  std::deque<IcebergSplitPtr> pending_;
  std::set<int> waiting_;
  std::set<int> signalled_;
  std::optional<int64_t> next_discovery_ms_;
};

}  // namespace floe::stream
