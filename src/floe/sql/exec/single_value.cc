// A scalar subquery's value: one subtask keeps the first row it sees and fails at a second one, so
// a subquery with many rows is refused without being held whole.

#include <memory>
#include <optional>
#include <utility>

#include "floe/sql/exec/names_internal.h"
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

}  // namespace

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
