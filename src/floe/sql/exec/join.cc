// Hash join: input 1 (the right side) is the build side, held in memory in full with a hash table
// of its keys; input 0 (the left side) probes once the build side has ended, and its batches that
// arrive before that are held back in memory too. Candidate pairs (equal non-null keys, or every
// pair without keys) are assembled in chunks, filtered by the extra condition, and emitted;
// outer joins then add their unmatched rows with nulls. Semi and anti joins emit the probing
// rows themselves, filtered by whether any candidate matched.

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "floe/batch/filter.h"
#include "floe/sql/exec/build_probe_internal.h"
#include "floe/sql/exec/cell_internal.h"
#include "floe/sql/exec/key_partition_internal.h"
#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/relational.h"
#include "floe/sql/exec/row_builder_internal.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kCandidatesPerChunk = 16 * 1024;

struct RowRef {
  int32_t batch;
  int64_t row;
};

std::string_view JoinName(JoinKind kind) {
  switch (kind) {
    case JoinKind::kInner:
      return "INNER JOIN";
    case JoinKind::kLeft:
      return "LEFT JOIN";
    case JoinKind::kLeftSingle:
      return "scalar subquery (single-row left join)";
    case JoinKind::kRight:
      return "RIGHT JOIN";
    case JoinKind::kFull:
      return "FULL JOIN";
    case JoinKind::kCross:
      return "CROSS JOIN";
    case JoinKind::kLeftSemi:
      return "IN / EXISTS subquery (semi join)";
    case JoinKind::kLeftAnti:
      return "NOT EXISTS subquery (anti join)";
    case JoinKind::kNullAwareAnti:
      return "NOT IN subquery (anti join)";
  }
  return "JOIN";
}

class HashJoinOperator : public BuildProbeOperator {
 public:
  HashJoinOperator(BatchSchemaPtr output, BatchSchemaPtr candidates, int left_width,
                   int right_width, JoinKind kind, std::vector<int> left_keys,
                   std::vector<int> right_keys, JoinCondition condition, std::string what)
      : output_(std::move(output)),
        left_width_(left_width),
        right_width_(right_width),
        kind_(kind),
        left_keys_(std::move(left_keys)),
        right_keys_(std::move(right_keys)),
        condition_(std::move(condition)),
        what_(std::move(what)),
        candidates_(std::move(candidates)) {}

  Status Finish(stream::Output& output) override {
    if (kind_ != JoinKind::kRight && kind_ != JoinKind::kFull) return {};
    RowBuilder rows(output_);
    for (size_t b = 0; b < build_.size(); ++b) {
      for (int64_t r = 0; r < build_[b].num_rows(); ++r) {
        if (build_matched_[b][r]) continue;
        rows.AppendNulls(0, left_width_);
        FLOE_RETURN_IF_ERROR(rows.AppendCells(build_[b], r, left_width_));
        rows.EndRow();
        if (rows.num_rows() >= kCandidatesPerChunk) FLOE_RETURN_IF_ERROR(Flush(rows, output));
      }
    }
    return Flush(rows, output);
  }

 private:
  bool Filtering() const {
    return kind_ == JoinKind::kLeftSemi || kind_ == JoinKind::kLeftAnti ||
           kind_ == JoinKind::kNullAwareAnti;
  }

  Status Build(RecordBatch batch) override {
    int32_t index = static_cast<int32_t>(build_.size());
    build_matched_.emplace_back(static_cast<size_t>(batch.num_rows()), 0);
    build_rows_ += batch.num_rows();
    if (!right_keys_.empty()) {
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        if (!EncodeKey(batch, right_keys_, r, key_)) {  // a null key matches nothing
          build_has_null_key_ = true;
          continue;
        }
        table_[key_].push_back({index, r});
      }
    }
    build_.push_back(std::move(batch));
    return {};
  }

  // Semi and anti joins: the rows of `batch` that have (have no) match.
  Status ProbeFiltering(const RecordBatch& batch, stream::Output& output) {
    std::vector<uint8_t> matched(static_cast<size_t>(batch.num_rows()), 0);
    if (kind_ == JoinKind::kNullAwareAnti) {
      // x NOT IN (... NULL ...) is never true; NULL NOT IN (non-empty) is unknown.
      if (build_has_null_key_) return {};
      for (int64_t row = 0; row < batch.num_rows(); ++row) {
        matched[row] =
            EncodeKey(batch, left_keys_, row, key_) ? table_.contains(key_) : build_rows_ > 0;
      }
    } else if (!condition_) {
      for (int64_t row = 0; row < batch.num_rows(); ++row) {
        matched[row] = left_keys_.empty()
                           ? build_rows_ > 0
                           : EncodeKey(batch, left_keys_, row, key_) && table_.contains(key_);
      }
    } else {
      FLOE_RETURN_IF_ERROR(MatchCandidates(batch, matched, output));
    }
    bool keep_matched = kind_ == JoinKind::kLeftSemi;
    int64_t kept = 0;
    for (uint8_t& m : matched) {
      m = (m != 0) == keep_matched;
      kept += m;
    }
    if (kept == 0) return {};
    if (kept == batch.num_rows()) return output.Emit(batch);
    FLOE_ASSIGN_OR_RETURN(RecordBatch out, FilterBatch(batch, matched));
    return output.Emit(std::move(out));
  }

  // Assembles every candidate pair of `batch`'s rows, marking the rows that match.
  Status MatchCandidates(const RecordBatch& batch, std::vector<uint8_t>& left_matched,
                         stream::Output& output) {
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      if (left_keys_.empty()) {
        for (size_t b = 0; b < build_.size(); ++b) {
          for (int64_t r = 0; r < build_[b].num_rows(); ++r) {
            FLOE_RETURN_IF_ERROR(
                AddCandidate(batch, row, {static_cast<int32_t>(b), r}, left_matched, output));
          }
        }
        continue;
      }
      if (!EncodeKey(batch, left_keys_, row, key_)) continue;
      auto it = table_.find(key_);
      if (it == table_.end()) continue;
      for (const RowRef& ref : it->second) {
        FLOE_RETURN_IF_ERROR(AddCandidate(batch, row, ref, left_matched, output));
      }
    }
    return FlushCandidates(left_matched, output);
  }

  Status Probe(const RecordBatch& batch, stream::Output& output) override {
    if (Filtering()) return ProbeFiltering(batch, output);
    std::vector<uint8_t> left_matched(static_cast<size_t>(batch.num_rows()), 0);
    FLOE_RETURN_IF_ERROR(MatchCandidates(batch, left_matched, output));
    if (kind_ != JoinKind::kLeft && kind_ != JoinKind::kLeftSingle && kind_ != JoinKind::kFull) {
      return {};
    }
    RowBuilder rows(output_);
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      if (left_matched[row]) continue;
      FLOE_RETURN_IF_ERROR(rows.AppendCells(batch, row, 0));
      rows.AppendNulls(left_width_, right_width_);
      rows.EndRow();
    }
    return Flush(rows, output);
  }

  Status AddCandidate(const RecordBatch& left, int64_t row, RowRef ref,
                      std::vector<uint8_t>& left_matched, stream::Output& output) {
    FLOE_RETURN_IF_ERROR(candidates_.AppendCells(left, row, 0));
    FLOE_RETURN_IF_ERROR(candidates_.AppendCells(build_[ref.batch], ref.row, left_width_));
    candidates_.EndRow();
    pairs_.push_back({row, ref});
    if (candidates_.num_rows() >= kCandidatesPerChunk) {
      return FlushCandidates(left_matched, output);
    }
    return {};
  }

  Status FlushCandidates(std::vector<uint8_t>& left_matched, stream::Output& output) {
    if (candidates_.num_rows() == 0) return {};
    FLOE_ASSIGN_OR_RETURN(RecordBatch joined, candidates_.Finish());
    std::vector<uint8_t> keep(static_cast<size_t>(joined.num_rows()), 1);
    if (condition_) {
      FLOE_ASSIGN_OR_RETURN(Array verdict, condition_(joined));
      if (verdict.kind() != TypeKind::kBool || verdict.length() != joined.num_rows()) {
        return InvalidArgument("{}: the join condition gave {} values of type {} for {} rows",
                               JoinName(kind_), verdict.length(), verdict.type()->ToString(),
                               joined.num_rows());
      }
      for (int64_t i = 0; i < joined.num_rows(); ++i) {
        keep[i] = verdict.IsValid(i) && verdict.GetBool(i);
      }
    }
    for (size_t i = 0; i < pairs_.size(); ++i) {
      if (!keep[i]) continue;
      if (kind_ == JoinKind::kLeftSingle && left_matched[pairs_[i].first]) {
        return InvalidArgument(
            "{} returned more than one row for one outer row: a scalar subquery may give at most "
            "one",
            what_);
      }
      left_matched[pairs_[i].first] = 1;
      build_matched_[pairs_[i].second.batch][pairs_[i].second.row] = 1;
    }
    pairs_.clear();
    if (Filtering()) return {};
    FLOE_ASSIGN_OR_RETURN(RecordBatch kept, FilterBatch(joined, keep));
    if (kept.num_rows() == 0) return {};
    return output.Emit(std::move(kept));
  }

  static Status Flush(RowBuilder& rows, stream::Output& output) {
    if (rows.num_rows() == 0) return {};
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, rows.Finish());
    return output.Emit(std::move(batch));
  }

  BatchSchemaPtr output_;
  int left_width_;
  int right_width_;
  JoinKind kind_;
  std::vector<int> left_keys_;
  std::vector<int> right_keys_;
  JoinCondition condition_;
  std::string what_;
  int64_t build_rows_ = 0;
  bool build_has_null_key_ = false;
  std::vector<RecordBatch> build_;
  std::vector<std::vector<uint8_t>> build_matched_;
  std::unordered_map<std::string, std::vector<RowRef>> table_;
  RowBuilder candidates_;
  std::vector<std::pair<int64_t, RowRef>> pairs_;
  std::string key_;
};

}  // namespace

Status CheckJoinInputs(const stream::DataStream& left, const stream::DataStream& right,
                       const std::vector<int>& left_keys, const std::vector<int>& right_keys,
                       std::string_view what) {
  if (left.environment().config().mode != stream::RuntimeMode::kBatch) {
    return Unsupported(
        "{} is only supported in batch mode (SET 'execution.runtime-mode' = 'batch'): floe "
        "has no streaming join yet",
        what);
  }
  if (&left.environment() != &right.environment()) {
    return InvalidArgument("{}: the two sides belong to different jobs", what);
  }
  if (left_keys.size() != right_keys.size()) {
    return InvalidArgument("{}: {} left keys but {} right keys", what, left_keys.size(),
                           right_keys.size());
  }
  const BatchSchema& left_schema = *left.schema();
  const BatchSchema& right_schema = *right.schema();
  for (size_t i = 0; i < left_keys.size(); ++i) {
    for (auto [key, schema, side] : {std::tuple(left_keys[i], &left_schema, "left"),
                                     std::tuple(right_keys[i], &right_schema, "right")}) {
      if (key < 0 || key >= schema->num_fields()) {
        return InvalidArgument("{}: key column {} is not one of the {} side's {} columns", what,
                               key, side, schema->num_fields());
      }
    }
    const Field& l = left_schema.field(left_keys[i]);
    const Field& r = right_schema.field(right_keys[i]);
    if (!l.type->Equals(*r.type)) {
      return InvalidArgument("{}: key '{}' is {} but '{}' is {}: cast one side first", what, l.name,
                             l.type->ToString(), r.name, r.type->ToString());
    }
  }
  return {};
}

stream::DataStream ConnectJoin(const stream::DataStream& left, const stream::DataStream& right,
                               const std::vector<int>& left_keys,
                               const std::vector<int>& right_keys, bool broadcast, std::string name,
                               BatchSchemaPtr output, stream::OperatorFactory factory) {
  if (broadcast) {
    return left.TransformWith({right.Broadcast()}, std::move(name), std::move(output),
                              std::move(factory), left.parallelism());
  }
  return PartitionByColumns(left, left_keys)
      .TransformWith({PartitionByColumns(right, right_keys)}, std::move(name), std::move(output),
                     std::move(factory));
}

Result<stream::DataStream> Join(const stream::DataStream& left, const stream::DataStream& right,
                                JoinKind kind, std::vector<int> left_keys,
                                std::vector<int> right_keys, JoinCondition condition,
                                std::string what) {
  if (what.empty()) what = JoinName(kind);
  FLOE_RETURN_IF_ERROR(CheckJoinInputs(left, right, left_keys, right_keys, JoinName(kind)));
  if (kind == JoinKind::kCross && !left_keys.empty()) {
    return InvalidArgument("CROSS JOIN takes no join keys");
  }
  const BatchSchema& left_schema = *left.schema();
  const BatchSchema& right_schema = *right.schema();
  bool filtering = kind == JoinKind::kLeftSemi || kind == JoinKind::kLeftAnti ||
                   kind == JoinKind::kNullAwareAnti;
  if (kind == JoinKind::kNullAwareAnti && (left_keys.size() != 1 || condition)) {
    return InvalidArgument("{} takes exactly one key and no condition", JoinName(kind));
  }
  std::vector<Field> fields;
  std::vector<Field> candidate_fields;
  for (Field field : left_schema.fields()) {
    field.nullable = field.nullable || kind == JoinKind::kRight || kind == JoinKind::kFull;
    fields.push_back(std::move(field));
  }
  for (Field field : right_schema.fields()) {
    field.nullable = field.nullable || kind == JoinKind::kLeft || kind == JoinKind::kLeftSingle ||
                     kind == JoinKind::kFull;
    fields.push_back(std::move(field));
  }
  if (filtering) {
    candidate_fields = fields;
    fields.resize(static_cast<size_t>(left_schema.num_fields()));
  }
  auto output = std::make_shared<const BatchSchema>(std::move(fields));
  auto candidates =
      filtering ? std::make_shared<const BatchSchema>(std::move(candidate_fields)) : output;
  int left_width = left_schema.num_fields();
  int right_width = right_schema.num_fields();
  auto factory = [=](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<HashJoinOperator>(output, candidates, left_width, right_width, kind,
                                              left_keys, right_keys, condition, what);
  };
  std::string name = NextOperatorName(left, "Join");
  if ((kind == JoinKind::kRight || kind == JoinKind::kFull) && left_keys.empty()) {
    // Whether a right row matched anywhere is known only where every pair is seen.
    return left.Rebalance().TransformWith({right.Rebalance()}, std::move(name), output, factory, 1);
  }
  // Without keys every pair is a candidate, and NOT IN needs to know of any null key on the right
  // and whether the right is empty: each subtask of the left sees the whole right side.
  return ConnectJoin(left, right, left_keys, right_keys,
                     left_keys.empty() || kind == JoinKind::kNullAwareAnti, std::move(name), output,
                     factory);
}

}  // namespace floe::sql::exec
