#include "floe/stream/iceberg/source_enumerator.h"

#include <utility>
#include <vector>

#include "floe/table/scan/snapshot_selection.h"
#include "floe/table/table.h"
#include "floe/util/json.h"

namespace floe::stream {

IcebergSplitEnumerator::IcebergSplitEnumerator(TableLoader loader, IcebergSourceOptions options,
                                               expr::ExprPtr filter)
    : loader_(std::move(loader)),
      options_(options),
      planner_(std::move(options), std::move(filter)) {}

IcebergSplitEnumerator::~IcebergSplitEnumerator() = default;

Status IcebergSplitEnumerator::Start(SplitEnumeratorContext& context,
                                     std::optional<std::string> restored_state) {
  context_ = &context;
  FLOE_ASSIGN_OR_RETURN(table_, loader_.Load());
  if (restored_state) {
    FLOE_RETURN_IF_ERROR(Restore(*restored_state));
  }
  if (!started_) {
    TableMetadataPtr metadata = table_->metadata();
    SourcePlanner::Start start;
    if (!options_.streaming) {
      FLOE_ASSIGN_OR_RETURN(start, planner_.PlanBatch(metadata, table_->io()));
      finished_ = true;
    } else {
      FLOE_ASSIGN_OR_RETURN(start, planner_.PlanStart(metadata, table_->io()));
      finished_ = options_.end_snapshot_id && start.position == options_.end_snapshot_id;
    }
    position_ = start.position;
    for (IcebergSplit& s : start.splits) {
      pending_.push_back(std::make_shared<IcebergSplit>(std::move(s)));
    }
    started_ = true;
  }
  Assign();
  return Ok();
}

Status IcebergSplitEnumerator::HandleSplitRequest(int subtask) {
  waiting_.insert(subtask);
  Assign();
  return Ok();
}

Status IcebergSplitEnumerator::Tick(int64_t now_ms) {
  if (finished_ || !options_.streaming) return Ok();
  if (next_discovery_ms_ && now_ms < *next_discovery_ms_) return Ok();
  next_discovery_ms_ = now_ms + options_.monitor_interval_ms;
  FLOE_RETURN_IF_ERROR(Discover());
  Assign();
  return Ok();
}

Status IcebergSplitEnumerator::Discover() {
  FLOE_RETURN_IF_ERROR(table_->Refresh());
  TableMetadataPtr metadata = table_->metadata();
  FLOE_ASSIGN_OR_RETURN(SnapshotPtr head, planner_.Head(*metadata));
  if (!head || (position_ && head->snapshot_id == *position_)) return Ok();
  int64_t to = head->snapshot_id;
  if (options_.end_snapshot_id) {
    // Stop at the end snapshot once it is in the head's history.
    auto history = table::SnapshotsBetween(*metadata, position_, false, to);
    if (!history) return std::unexpected(std::move(history.error()));
    for (const SnapshotPtr& s : *history) {
      if (s->snapshot_id == *options_.end_snapshot_id) {
        to = s->snapshot_id;
        finished_ = true;
        break;
      }
    }
  }
  auto splits = planner_.PlanBetween(metadata, table_->io(), position_, to);
  if (!splits) {
    splits.error().AddContext("discovering the snapshots after " +
                              (position_ ? std::to_string(*position_) : std::string("the start")) +
                              " in " + loader_.ToString());
    return std::unexpected(std::move(splits.error()));
  }
  for (IcebergSplit& s : *splits) pending_.push_back(std::make_shared<IcebergSplit>(std::move(s)));
  position_ = to;
  return Ok();
}

void IcebergSplitEnumerator::Assign() {
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    const int subtask = *it;
    const bool gets_splits = !options_.limit || subtask == 0;
    if (gets_splits && !pending_.empty()) {
      std::vector<std::any> splits{std::any(pending_.front())};
      pending_.pop_front();
      context_->AssignSplits(subtask, std::move(splits));
      it = waiting_.erase(it);
      continue;
    }
    if ((!gets_splits || (finished_ && pending_.empty())) && !signalled_.contains(subtask)) {
      signalled_.insert(subtask);
      context_->SignalNoMoreSplits(subtask);
      it = waiting_.erase(it);
      continue;
    }
    ++it;
  }
}

Result<std::string> IcebergSplitEnumerator::SnapshotState(int64_t /*checkpoint_id*/) {
  Json state = Json::MakeObject();
  state.Set("started", Json(started_));
  state.Set("position", position_ ? Json(*position_) : Json());
  state.Set("finished", Json(finished_));
  Json pending = Json::MakeArray();
  for (const IcebergSplitPtr& s : pending_) pending.Push(SplitToJson(*s));
  state.Set("pending", std::move(pending));
  return state.Dump();
}

std::optional<std::string> IcebergSplitEnumerator::Position() const {
  if (!position_) return std::nullopt;
  return std::to_string(*position_);
}

Status IcebergSplitEnumerator::Restore(const std::string& text) {
  auto restore = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(Json state, Json::Parse(text));
    FLOE_ASSIGN_OR_RETURN(started_, state.GetBool("started"));
    FLOE_ASSIGN_OR_RETURN(position_, state.GetOptionalInt("position"));
    FLOE_ASSIGN_OR_RETURN(finished_, state.GetBool("finished"));
    FLOE_ASSIGN_OR_RETURN(const Json::Array* pending, state.GetArray("pending"));
    TableMetadataPtr metadata = table_->metadata();
    for (const Json& s : *pending) {
      FLOE_ASSIGN_OR_RETURN(IcebergSplit split, SplitFromJson(s, *metadata));
      pending_.push_back(std::make_shared<IcebergSplit>(std::move(split)));
    }
    return Ok();
  };
  Status status = restore();
  if (!status) {
    return InvalidArgument("restoring the Iceberg source enumerator of {}: {}", loader_.ToString(),
                           status.error().message());
  }
  return Ok();
}

}  // namespace floe::stream
