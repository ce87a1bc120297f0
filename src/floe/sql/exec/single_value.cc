// A scalar subquery's value: one subtask keeps the first row it sees and fails at a second one, so
// a subquery with many rows is refused without being held whole. Correlated, the same per key:
// rows are partitioned by key and each subtask remembers the keys it has passed on.

#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>

#include "floe/batch/filter.h"
#include "floe/sql/exec/cell.h"
#include "floe/sql/exec/key_partition.h"
#include "floe/sql/exec/names.h"
#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {
namespace {

class SingleValueOperator : public stream::Operator {
 public:
  SingleValueOperator(BatchSchemaPtr schema, std::string what)
      : schema_(std::move(schema)), what_(std::move(what)) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output&) override {
    if (batch.num_rows() == 0) return {};
    if (row_.has_value() || batch.num_rows() > 1) {
      return InvalidArgument(
          "{} returned more than one row: a scalar subquery may give at most one", what_);
    }
    row_ = std::move(batch);
    return {};
  }

  Status Finish(stream::Output& output) override {
    Array value = row_.has_value() ? row_->column(0) : Array::MakeNulls(schema_->field(0).type, 1);
    FLOE_ASSIGN_OR_RETURN(RecordBatch out, RecordBatch::Make(schema_, {std::move(value)}, 1));
    return output.Emit(std::move(out));
  }

 private:
  BatchSchemaPtr schema_;
  std::string what_;
  std::optional<RecordBatch> row_;
};

class SingleRowPerKeyOperator : public stream::Operator {
 public:
  SingleRowPerKeyOperator(std::vector<int> keys, std::string what)
      : keys_(std::move(keys)), what_(std::move(what)) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    std::vector<uint8_t> keep(static_cast<size_t>(batch.num_rows()), 0);
    int64_t kept = 0;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      if (!EncodeKey(batch, row)) continue;
      if (!seen_.insert(key_).second) {
        return InvalidArgument(
            "{} returned more than one row for one outer row: a scalar subquery may give at most "
            "one",
            what_);
      }
      keep[row] = 1;
      ++kept;
    }
    if (kept == 0) return {};
    if (kept == batch.num_rows()) return output.Emit(std::move(batch));
    FLOE_ASSIGN_OR_RETURN(RecordBatch out, FilterBatch(batch, keep));
    return output.Emit(std::move(out));
  }

 private:
  bool EncodeKey(const RecordBatch& batch, int64_t row) {
    key_.clear();
    for (int column : keys_) {
      if (batch.column(column).IsNull(row)) return false;
      EncodeCell(batch.column(column), row, key_);
    }
    return true;
  }

  std::vector<int> keys_;
  std::string what_;
  std::unordered_set<std::string> seen_;
  std::string key_;
};

}  // namespace

Result<stream::DataStream> SingleRowPerKey(const stream::DataStream& input,
                                           std::vector<int> key_columns, std::string what) {
  if (input.environment().config().mode != stream::RuntimeMode::kBatch) {
    return Unsupported("{}: supported in batch mode only", what);
  }
  for (int key : key_columns) {
    if (key < 0 || key >= input.schema()->num_fields()) {
      return InvalidArgument("{}: key column {} is not one of its {} columns", what, key,
                             input.schema()->num_fields());
    }
  }
  BatchSchemaPtr schema = input.schema();
  auto factory = [key_columns, what](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<SingleRowPerKeyOperator>(key_columns, what);
  };
  return PartitionByColumns(input, key_columns)
      .Transform(NextOperatorName(input, "SingleRowPerKey"), schema, factory);
}

Result<stream::DataStream> SingleValue(const stream::DataStream& input, std::string column_name,
                                       std::string what) {
  if (input.schema()->num_fields() != 1) {
    return InvalidArgument("{} returns {} columns: a scalar subquery must return exactly one", what,
                           input.schema()->num_fields());
  }
  Field field = input.schema()->field(0);
  field.name = std::move(column_name);
  field.nullable = true;
  field.field_id.reset();
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{std::move(field)});
  auto factory = [schema, what](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<SingleValueOperator>(schema, what);
  };
  return input.Transform(NextOperatorName(input, "SingleValue"), schema, factory, 1);
}

}  // namespace floe::sql::exec
