// INTERSECT and EXCEPT as a count per distinct row: each side's rows are tagged with a 1 in their
// own count column, the two sides are unioned and grouped by every column (so null equals null,
// as set operations compare rows), and each group comes out as many times as the operation keeps
// it. Being an aggregate, it works on change streams too: a group's -U row carries its old counts
// and so retracts the copies emitted before.

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/take.h"
#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {
namespace {

std::optional<Buffer> RowKindsOf(const RecordBatch& batch) {
  if (!batch.has_row_kinds()) return std::nullopt;
  std::span<const RowKind> kinds = batch.row_kinds();
  return Buffer::CopyOf(kinds.data(), static_cast<int64_t>(kinds.size()));
}

// Appends the constant counts (left, right) to every row.
class TagOperator : public stream::Operator {
 public:
  TagOperator(BatchSchemaPtr schema, int64_t left, int64_t right)
      : schema_(std::move(schema)), left_(left), right_(right) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    std::vector<Array> columns = batch.columns();
    for (int64_t value : {left_, right_}) {
      Int64Builder builder;
      builder.Reserve(batch.num_rows());
      for (int64_t i = 0; i < batch.num_rows(); ++i) builder.UnsafeAppend(value);
      FLOE_ASSIGN_OR_RETURN(Array column, builder.Finish());
      columns.push_back(std::move(column));
    }
    FLOE_ASSIGN_OR_RETURN(
        RecordBatch tagged,
        RecordBatch::Make(schema_, std::move(columns), batch.num_rows(), RowKindsOf(batch)));
    return output.Emit(std::move(tagged));
  }

 private:
  BatchSchemaPtr schema_;
  int64_t left_;
  int64_t right_;
};

// Each row of (columns..., left count, right count) as many times as the operation keeps it,
// without the counts.
class ReplicateOperator : public stream::Operator {
 public:
  ReplicateOperator(BatchSchemaPtr schema, SetOperation operation, bool all)
      : schema_(std::move(schema)), operation_(operation), all_(all) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    const int width = schema_->num_fields();
    const Array& left = batch.column(width);
    const Array& right = batch.column(width + 1);
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      int64_t l = left.IsNull(i) ? 0 : left.Value<int64_t>(i);
      int64_t r = right.IsNull(i) ? 0 : right.Value<int64_t>(i);
      int64_t copies = operation_ == SetOperation::kIntersect ? std::min(l, r) : l - r;
      if (!all_) {
        copies = operation_ == SetOperation::kIntersect ? (copies > 0 ? 1 : 0)
                                                        : (l > 0 && r == 0 ? 1 : 0);
      }
      for (int64_t c = 0; c < copies; ++c) rows.push_back(i);
    }
    if (rows.empty()) return {};
    FLOE_ASSIGN_OR_RETURN(RecordBatch kept, TakeBatch(batch, rows));
    std::vector<Array> columns(kept.columns().begin(), kept.columns().begin() + width);
    // The rows have no key, so an update of a group is the removal of its old copies and the
    // insertion of its new ones: -U becomes -D and +U +I.
    std::optional<Buffer> kinds;
    if (kept.has_row_kinds()) {
      std::vector<RowKind> changes(kept.row_kinds().begin(), kept.row_kinds().end());
      for (RowKind& kind : changes) {
        if (kind == RowKind::kUpdateBefore) kind = RowKind::kDelete;
        if (kind == RowKind::kUpdateAfter) kind = RowKind::kInsert;
      }
      kinds = Buffer::CopyOf(changes.data(), static_cast<int64_t>(changes.size()));
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch out, RecordBatch::Make(schema_, std::move(columns),
                                                             kept.num_rows(), std::move(kinds)));
    return output.Emit(std::move(out));
  }

 private:
  BatchSchemaPtr schema_;
  SetOperation operation_;
  bool all_;
};

BatchSchemaPtr WithCounts(const BatchSchema& schema) {
  std::vector<Field> fields = schema.fields();
  fields.push_back(Field{.name = "$left", .type = DataType::Int64(), .nullable = false});
  fields.push_back(Field{.name = "$right", .type = DataType::Int64(), .nullable = false});
  return std::make_shared<const BatchSchema>(std::move(fields));
}

stream::DataStream Tag(const stream::DataStream& input, int64_t left, int64_t right) {
  BatchSchemaPtr schema = WithCounts(*input.schema());
  auto factory = [schema, left, right](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<TagOperator>(schema, left, right);
  };
  return input.Transform(NextOperatorName(input, "SetOperationTag"), schema, factory);
}

}  // namespace

Result<stream::DataStream> IntersectExcept(const stream::DataStream& left,
                                           const stream::DataStream& right, SetOperation operation,
                                           bool all) {
  const int width = left.schema()->num_fields();
  FLOE_ASSIGN_OR_RETURN(stream::DataStream both, UnionAll({Tag(left, 1, 0), Tag(right, 0, 1)}));
  std::vector<int> group(width);
  for (int i = 0; i < width; ++i) group[i] = i;
  FLOE_ASSIGN_OR_RETURN(
      stream::DataStream counted,
      Aggregate(
          both, group,
          {AggregateCall{.kind = AggregateKind::kSum, .argument = width, .output_name = "$left"},
           AggregateCall{
               .kind = AggregateKind::kSum, .argument = width + 1, .output_name = "$right"}}));
  std::vector<Field> fields = left.schema()->fields();
  for (Field& field : fields) field.field_id.reset();
  auto schema = std::make_shared<const BatchSchema>(std::move(fields));
  auto factory = [schema, operation, all](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<ReplicateOperator>(schema, operation, all);
  };
  return counted.Transform(
      NextOperatorName(counted, operation == SetOperation::kIntersect ? "Intersect" : "Except"),
      schema, factory);
}

}  // namespace floe::sql::exec
