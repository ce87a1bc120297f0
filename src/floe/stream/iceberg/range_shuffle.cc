#include "floe/stream/iceberg/range_shuffle.h"

#include <algorithm>
#include <cmath>

#include "floe/table/write/partitioner.h"

namespace floe::stream {
namespace {

// Partitioners keep every distinct key they meet; past this many they start over, so that
// high-cardinality sort keys (ids, timestamps) keep memory bounded.
constexpr size_t kMaxKeyIds = 1 << 16;

}  // namespace

void RangeStatistics::Report(int64_t checkpoint_id, int subtask, int parallelism,
                             std::vector<WeightedKey> sample) {
  std::vector<WeightedKey> merged;
  {
    std::lock_guard lock(mutex_);
    if (current_ != nullptr && checkpoint_id <= current_->checkpoint_id()) return;
    Reports& reports = reports_[checkpoint_id];
    reports.parallelism = parallelism;
    reports.by_subtask[subtask] = std::move(sample);
    if (static_cast<int>(reports.by_subtask.size()) < parallelism) return;
    for (auto& [index, keys] : reports.by_subtask) {
      for (WeightedKey& key : keys) merged.push_back(std::move(key));
    }
    reports_.erase(reports_.begin(), reports_.upper_bound(checkpoint_id));
  }
  // Sorting the merged sample is the expensive part: outside the lock.
  Install(RangeAssignment::Compute(sort_key_, std::move(merged), writers_, checkpoint_id));
}

void RangeStatistics::Restore(std::shared_ptr<const RangeAssignment> assignment) {
  Install(std::move(assignment));
}

void RangeStatistics::Install(std::shared_ptr<const RangeAssignment> assignment) {
  if (assignment == nullptr || assignment->writers() != writers_) return;
  std::lock_guard lock(mutex_);
  if (current_ == nullptr || assignment->checkpoint_id() > current_->checkpoint_id()) {
    current_ = std::move(assignment);
  }
}

std::shared_ptr<const RangeAssignment> RangeStatistics::Current() const {
  std::lock_guard lock(mutex_);
  return current_;
}

void RangeStatistics::Pin(int subtask, std::shared_ptr<const RangeAssignment> assignment) {
  std::lock_guard lock(mutex_);
  pinned_.at(static_cast<size_t>(subtask)) = std::move(assignment);
}

std::shared_ptr<const RangeAssignment> RangeStatistics::Pinned(int subtask) const {
  std::lock_guard lock(mutex_);
  return pinned_.at(static_cast<size_t>(subtask));
}

RangeStatisticsOperator::RangeStatisticsOperator(std::shared_ptr<RangeStatistics> statistics,
                                                 SchemaPtr schema, BatchSchemaPtr batch_schema)
    : statistics_(std::move(statistics)),
      schema_(std::move(schema)),
      batch_schema_(std::move(batch_schema)) {}
RangeStatisticsOperator::~RangeStatisticsOperator() = default;

Status RangeStatisticsOperator::Open(const OperatorContext& context) {
  subtask_ = context.subtask_index;
  parallelism_ = context.parallelism;
  random_.seed(static_cast<uint64_t>(subtask_) + 1);
  std::shared_ptr<const RangeAssignment> restored;
  for (size_t i = 0; i < context.restored_state.size(); ++i) {
    auto json = Json::Parse(context.restored_state[i]);
    if (!json) {
      return InvalidArgument("{} state entry {}: {}", context.operator_name, i,
                             json.error().message());
    }
    auto assignment = RangeAssignment::FromJson(statistics_->sort_key(), *json);
    if (!assignment) {
      return InvalidArgument("{} state entry {}: {}", context.operator_name, i,
                             assignment.error().message());
    }
    if (restored == nullptr || (*assignment)->checkpoint_id() > restored->checkpoint_id()) {
      restored = std::move(*assignment);
    }
  }
  statistics_->Restore(restored);
  statistics_->Pin(subtask_, std::move(restored));
  return Ok();
}

Status RangeStatisticsOperator::ProcessBatch(int /*input*/, RecordBatch batch, Output& output) {
  if (partitioner_ == nullptr || partitioner_->num_partitions() > kMaxKeyIds) {
    FLOE_ASSIGN_OR_RETURN(partitioner_, table::Partitioner::Make(statistics_->sort_key().spec(),
                                                                 *schema_, *batch_schema_));
  }
  FLOE_RETURN_IF_ERROR(partitioner_->Assign(batch, key_of_row_));
  // Reservoir sampling (Algorithm R): every row seen has the same chance to be in the sample.
  for (uint32_t key : key_of_row_) {
    ++rows_seen_;
    if (sample_.size() < kSampleSize) {
      sample_.push_back(partitioner_->Values(key));
    } else if (const uint64_t slot = random_() % rows_seen_; slot < kSampleSize) {
      sample_[slot] = partitioner_->Values(key);
    }
  }
  return output.Emit(std::move(batch));
}

Result<std::vector<std::string>> RangeStatisticsOperator::SnapshotState(int64_t checkpoint_id,
                                                                        Output& /*output*/) {
  // Pinned before reporting: the assignment of the previous checkpoint, the same for every
  // subtask (see the header).
  std::shared_ptr<const RangeAssignment> pinned = statistics_->Current();
  statistics_->Pin(subtask_, pinned);
  std::vector<WeightedKey> sample;
  if (!sample_.empty()) {
    const double weight = static_cast<double>(rows_seen_) / static_cast<double>(sample_.size());
    sample.reserve(sample_.size());
    for (KeyTuple& key : sample_) sample.push_back(WeightedKey{std::move(key), weight});
  }
  sample_.clear();
  rows_seen_ = 0;
  partitioner_.reset();
  statistics_->Report(checkpoint_id, subtask_, parallelism_, std::move(sample));

  std::vector<std::string> state;
  if (pinned != nullptr) {
    FLOE_ASSIGN_OR_RETURN(Json json, pinned->ToJson());
    state.push_back(json.Dump());
  }
  return state;
}

RangeChannelSelector::~RangeChannelSelector() = default;

Result<std::unique_ptr<RangeChannelSelector>> RangeChannelSelector::Make(
    std::shared_ptr<RangeStatistics> statistics, int subtask, SchemaPtr schema,
    BatchSchemaPtr batch_schema) {
  std::unique_ptr<RangeChannelSelector> selector(new RangeChannelSelector());
  FLOE_ASSIGN_OR_RETURN(
      selector->partitioner_,
      table::Partitioner::Make(statistics->sort_key().spec(), *schema, *batch_schema));
  selector->statistics_ = std::move(statistics);
  selector->subtask_ = subtask;
  selector->schema_ = std::move(schema);
  selector->batch_schema_ = std::move(batch_schema);
  return selector;
}

Status RangeChannelSelector::SelectChannels(const RecordBatch& batch, int num_channels,
                                            std::vector<int32_t>& channels) {
  const int64_t rows = batch.num_rows();
  channels.resize(static_cast<size_t>(rows));
  std::shared_ptr<const RangeAssignment> assignment = statistics_->Pinned(subtask_);
  if (assignment == nullptr) {
    for (int64_t i = 0; i < rows; ++i) {
      channels[i] = static_cast<int32_t>(next_round_robin_++ % static_cast<uint64_t>(num_channels));
    }
    return Ok();
  }
  if (assignment != assignment_ || partitioner_->num_partitions() > kMaxKeyIds) {
    if (partitioner_->num_partitions() > kMaxKeyIds) {
      FLOE_ASSIGN_OR_RETURN(partitioner_, table::Partitioner::Make(statistics_->sort_key().spec(),
                                                                   *schema_, *batch_schema_));
    }
    assignment_ = std::move(assignment);
    routes_.clear();
  }
  FLOE_RETURN_IF_ERROR(partitioner_->Assign(batch, key_of_row_));
  if (routes_.size() < partitioner_->num_partitions())
    routes_.resize(partitioner_->num_partitions());
  for (int64_t i = 0; i < rows; ++i) {
    const uint32_t key = key_of_row_[i];
    KeyRoute& route = routes_[key];
    if (!route.known) {
      route.route = assignment_->RouteOf(statistics_->sort_key(), partitioner_->Values(key));
      route.known = true;
    }
    int writer = route.route.first;
    if (!route.route.cumulative.empty()) {
      // A low-discrepancy sequence in [0, 1) (golden ratio steps): every prefix of the key's rows
      // is dealt out close to the fractions.
      const double x = std::fmod(static_cast<double>(route.sent++) * 0.6180339887498949, 1.0);
      const auto& cumulative = route.route.cumulative;
      writer += static_cast<int>(std::upper_bound(cumulative.begin(), cumulative.end() - 1, x) -
                                 cumulative.begin());
    }
    channels[i] = static_cast<int32_t>(writer % num_channels);
  }
  return Ok();
}

}  // namespace floe::stream
