#include <fmt/format.h>

#include <algorithm>

#include "floe/sql/scalar/type_rules.h"
#include "floe/sql/statements/insert_columns_internal.h"
#include "floe/stream/metrics.h"

namespace floe::sql {
namespace {

// A query column as it is (the binder's expressions read columns by name; the query's names may
// repeat or be EXPR$n, so this refers to the column by position).
class InputColumn final : public ScalarExpr {
 public:
  InputColumn(int index, const Field& field)
      : ScalarExpr(field.type, field.nullable), index_(index), name_(field.name) {}
  Result<Array> Evaluate(const RecordBatch& input) const override { return input.column(index_); }
  std::string ToString() const override { return name_; }
  std::optional<int> column_index() const override { return index_; }

 private:
  int index_;
  std::string name_;
};

// The value for a table column from `source`, cast when the types differ.
Result<ScalarExprPtr> Coerce(const std::string& table_name, const Field& column,
                             ScalarExprPtr source, std::string_view what) {
  if (source->type()->Equals(*column.type)) return source;
  auto cast = CastScalar(source, column.type);
  if (!cast.has_value()) {
    return InvalidArgument(
        "INSERT INTO {}: column '{}' is {}, and {} of type {} cannot be cast to it ({})",
        table_name, column.name, scalar::SqlTypeName(*column.type), what,
        scalar::SqlTypeName(*source->type()), cast.error().message());
  }
  return *cast;
}

class InsertProjection final : public stream::Operator {
 public:
  InsertProjection(std::shared_ptr<const InsertMapping> mapping,
                   std::shared_ptr<std::atomic<int64_t>> rows)
      : mapping_(std::move(mapping)), rows_(std::move(rows)) {}

  Status Open(const stream::OperatorContext& context) override {
    metrics_ = context.metrics;
    rows_metric_ =
        fmt::format("{}.{}.{}", context.operator_name, context.subtask_index, kInsertedRowsMetric);
    return {};
  }

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    const BatchSchema& schema = *mapping_->output;
    std::vector<Array> columns;
    columns.reserve(mapping_->values.size());
    for (int i = 0; i < schema.num_fields(); ++i) {
      const Field& field = schema.field(i);
      const ScalarExprPtr& value = mapping_->values[i];
      Array column;
      if (value == nullptr) {
        column = Array::MakeNulls(field.type, batch.num_rows());
      } else {
        FLOE_ASSIGN_OR_RETURN(column, value->Evaluate(batch));
      }
      if (!field.nullable && column.null_count() > 0) {
        return InvalidArgument(
            "column '{}' is NOT NULL, but the query gives it a null value ({} of {} rows)",
            field.name, column.null_count(), batch.num_rows());
      }
      columns.push_back(std::move(column));
    }
    std::optional<Buffer> kinds;
    if (batch.has_row_kinds()) {
      std::span<const RowKind> span = batch.row_kinds();
      kinds = Buffer::CopyOf(span.data(), static_cast<int64_t>(span.size()));
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch out, RecordBatch::Make(mapping_->output, std::move(columns),
                                                             batch.num_rows(), std::move(kinds)));
    rows_->fetch_add(out.num_rows(), std::memory_order_relaxed);
    if (metrics_ != nullptr) metrics_->Add(rows_metric_, out.num_rows());
    return output.Emit(std::move(out));
  }

 private:
  std::shared_ptr<const InsertMapping> mapping_;
  std::shared_ptr<std::atomic<int64_t>> rows_;
  stream::MetricGroup* metrics_ = nullptr;
  std::string rows_metric_;
};

}  // namespace

Result<InsertMapping> MapInsertColumns(
    const std::string& table_name, const BatchSchemaPtr& table_columns, const BatchSchema& query,
    const std::vector<std::string>& columns,
    const std::vector<std::pair<std::string, ScalarExprPtr>>& static_values) {
  const BatchSchema& table = *table_columns;
  InsertMapping mapping{.output = table_columns,
                        .values = std::vector<ScalarExprPtr>(table.num_fields())};
  std::vector<bool> assigned(table.num_fields(), false);
  auto index_of = [&](const std::string& name, std::string_view role) -> Result<int> {
    const int index = table.FindFieldIndex(name);
    if (index < 0) {
      return InvalidArgument("INSERT INTO {}: {} '{}' is not a column of the table ({})",
                             table_name, role, name, table.ToString());
    }
    if (assigned[index]) {
      return InvalidArgument("INSERT INTO {}: column '{}' is given twice", table_name, name);
    }
    assigned[index] = true;
    return index;
  };

  for (const auto& [name, value] : static_values) {
    FLOE_ASSIGN_OR_RETURN(int index, index_of(name, "PARTITION column"));
    FLOE_ASSIGN_OR_RETURN(
        mapping.values[index],
        Coerce(table_name, table.field(index), value, "the PARTITION value " + value->ToString()));
  }
  std::vector<int> targets;
  if (columns.empty()) {
    for (int i = 0; i < table.num_fields(); ++i) {
      if (!assigned[i]) targets.push_back(i);
    }
  } else {
    for (const std::string& name : columns) {
      FLOE_ASSIGN_OR_RETURN(int index, index_of(name, "target column"));
      targets.push_back(index);
    }
  }
  if (static_cast<int>(targets.size()) != query.num_fields()) {
    std::string names;
    for (int index : targets) names += (names.empty() ? "" : ", ") + table.field(index).name;
    return InvalidArgument(
        "INSERT INTO {}: the query gives {} columns ({}), but {} are written ({})", table_name,
        query.num_fields(), query.ToString(), targets.size(), names);
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const Field& column = table.field(targets[i]);
    auto input = std::make_shared<const InputColumn>(static_cast<int>(i), query.field(i));
    FLOE_ASSIGN_OR_RETURN(mapping.values[targets[i]],
                          Coerce(table_name, column, std::move(input),
                                 fmt::format("query column {} '{}'", i + 1, query.field(i).name)));
  }
  for (int i = 0; i < table.num_fields(); ++i) {
    if (!assigned[i] && std::find(targets.begin(), targets.end(), i) == targets.end() &&
        !table.field(i).nullable) {
      return InvalidArgument(
          "INSERT INTO {}: column '{}' is NOT NULL and the statement gives it no value", table_name,
          table.field(i).name);
    }
  }
  return mapping;
}

stream::DataStream ProjectToTable(const stream::DataStream& input, InsertMapping mapping,
                                  std::shared_ptr<std::atomic<int64_t>> rows) {
  BatchSchemaPtr output = mapping.output;
  auto shared = std::make_shared<const InsertMapping>(std::move(mapping));
  return input.Transform(
      "insert columns", output,
      [shared, rows](int) -> Result<std::unique_ptr<stream::Operator>> {
        return std::make_unique<InsertProjection>(shared, rows);
      },
      input.parallelism());
}

}  // namespace floe::sql
