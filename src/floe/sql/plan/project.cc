#include <memory>

#include "floe/sql/plan/project_internal.h"

namespace floe::sql::plan {
namespace {

class ProjectOperator final : public stream::Operator {
 public:
  ProjectOperator(std::shared_ptr<const Projection> projection, BatchSchemaPtr schema)
      : projection_(std::move(projection)), schema_(std::move(schema)) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    if (projection_->filter) {
      FLOE_ASSIGN_OR_RETURN(batch, FilterBatch(batch, *projection_->filter));
    }
    if (batch.num_rows() == 0) return {};
    std::vector<Array> columns;
    columns.reserve(projection_->columns.size());
    for (const ScalarExprPtr& column : projection_->columns) {
      FLOE_ASSIGN_OR_RETURN(Array array, column->Evaluate(batch));
      columns.push_back(std::move(array));
    }
    std::optional<Buffer> kinds;
    if (batch.has_row_kinds()) {
      std::span<const RowKind> span = batch.row_kinds();
      kinds = Buffer::CopyOf(span.data(), static_cast<int64_t>(span.size()));
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch out,
                          RecordBatch::Make(schema_, std::move(columns), batch.num_rows(), kinds));
    return output.Emit(std::move(out));
  }

 private:
  std::shared_ptr<const Projection> projection_;
  BatchSchemaPtr schema_;
};

}  // namespace

BatchSchemaPtr ProjectionSchema(const Projection& projection) {
  std::vector<Field> fields;
  fields.reserve(projection.columns.size());
  for (size_t i = 0; i < projection.columns.size(); ++i) {
    fields.push_back(Field{.name = projection.names[i],
                           .type = projection.columns[i]->type(),
                           .nullable = projection.columns[i]->nullable()});
  }
  return std::make_shared<BatchSchema>(std::move(fields));
}

stream::DataStream Project(const stream::DataStream& input, Projection projection,
                           const std::string& name) {
  BatchSchemaPtr schema = ProjectionSchema(projection);
  auto shared = std::make_shared<const Projection>(std::move(projection));
  stream::OperatorFactory factory = [shared,
                                     schema](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::unique_ptr<stream::Operator>(std::make_unique<ProjectOperator>(shared, schema));
  };
  return input.Forward().Transform(name, schema, std::move(factory), input.parallelism());
}

}  // namespace floe::sql::plan
