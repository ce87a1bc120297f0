#pragma once

// Scalar SQL expressions, bound and vectorised: the binder resolves the names of a parsed
// expression (ast.h) against a Scope, checks and coerces types as Flink does (numeric widening,
// implicit casts of literals, three-valued logic), and gives a ScalarExpr that evaluates over a
// whole batch at once. Functions cover Flink's common scalar ones (string, math, date/time,
// conditional: COALESCE, NULLIF, IF, CASE), CAST/TRY_CAST between every pair Flink allows, LIKE,
// IN, BETWEEN, IS [NOT] NULL and floe's IS [NOT] NAN. Aggregate calls are not scalar: the planner
// takes them out first.
//
// Types are batch DataTypes (CHAR/VARCHAR/STRING are all String; TIMESTAMP(p) is a local
// timestamp in micros, TIMESTAMP_LTZ a UTC one, both with precision() p, which says how many
// fraction digits the client shows). Errors name the expression's line and column.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/array.h"
#include "floe/batch/record_batch.h"
#include "floe/batch/value.h"
#include "floe/expr/expression.h"
#include "floe/sql/syntax/ast.h"
#include "floe/util/error.h"

namespace floe::sql {

// A column an expression may name: `qualifier.name` or `name` alone when that is unambiguous.
// field_id is the Iceberg field id when the column comes straight from an Iceberg table (for
// filter push-down).
struct ScopeColumn {
  std::string qualifier;
  std::string name;
  DataTypePtr type;
  bool nullable = true;
  std::optional<int32_t> field_id;
};

class Scope {
 public:
  Scope() = default;
  explicit Scope(std::vector<ScopeColumn> columns) : columns_(std::move(columns)) {}
  const std::vector<ScopeColumn>& columns() const { return columns_; }
  // The index of a written column name (1 or 2 parts; case-insensitive as Flink's default is
  // not, so: exact match first, then a unique case-insensitive one). kInvalidArgument for an
  // unknown or ambiguous name, naming it and the position.
  Result<int> Find(const std::vector<std::string>& name, Position position) const;
  // A scope for the rows of a batch with this schema, every column under `qualifier`.
  static Scope ForSchema(const BatchSchema& schema, std::string qualifier = {});

 private:
  std::vector<ScopeColumn> columns_;
};

class ScalarExpr {
 public:
  virtual ~ScalarExpr() = default;
  const DataTypePtr& type() const { return type_; }
  bool nullable() const { return nullable_; }
  // One value per row of `input`, of type(). Runtime errors (division by zero, a failed CAST)
  // name the expression.
  virtual Result<Array> Evaluate(const RecordBatch& input) const = 0;
  // SQL text of the expression, for EXPLAIN and for naming unnamed result columns (Flink names
  // them EXPR$0, EXPR$1...; the planner decides).
  virtual std::string ToString() const = 0;
  // The input column when the expression is a bare column reference.
  virtual std::optional<int> column_index() const { return std::nullopt; }
  // The value when the expression is constant (literals and functions of them).
  virtual std::optional<Value> constant() const { return std::nullopt; }

 protected:
  ScalarExpr(DataTypePtr type, bool nullable) : type_(std::move(type)), nullable_(nullable) {}

 private:
  DataTypePtr type_;
  bool nullable_;
};

using ScalarExprPtr = std::shared_ptr<const ScalarExpr>;

// Binds a parsed expression. Aggregate calls and subqueries are kInvalidArgument here.
Result<ScalarExprPtr> BindScalar(const Expr& expr, const Scope& scope);

// A cast of a bound expression (implicit casts of INSERT and UNION, explicit CAST), with Flink's
// rules on which casts are allowed; `safe` gives null instead of an error on a failed value
// (TRY_CAST).
Result<ScalarExprPtr> CastScalar(ScalarExprPtr input, const DataTypePtr& target, bool safe = false);

// The batch type of a written SQL type (CAST targets, VALUES): CHAR/VARCHAR/STRING -> string,
// DECIMAL(p, s), TIMESTAMP(p) -> local micros (nanos for p > 6) of precision p, TIMESTAMP_LTZ
// -> UTC, TIME(p) -> micros of precision p (TIME is TIME(0)), ...
Result<DataTypePtr> ToBatchType(const SqlType& type);

// The value of a constant expression with no columns (VALUES rows, LIMIT, PARTITION values,
// CALL arguments).
Result<Value> EvaluateConstant(const Expr& expr);

// The length in microseconds of a day-time INTERVAL literal (INTERVAL '5' SECOND); nullopt for
// any other expression, a year-month interval or text that is no interval.
std::optional<int64_t> DayTimeIntervalMicros(const Expr& expr);

// COUNT, SUM, AVG, MIN, MAX (any case): calls the planner must take out before binding.
bool IsAggregateFunction(std::string_view name);
bool ContainsAggregate(const Expr& expr);

// Filter push-down: the conjuncts of a WHERE predicate (bound against `scope`) that map to
// Iceberg expressions (unbound, by column name) on scope columns with field ids, and-ed together;
// expr::True() when none do. What does not map stays in the plan as a residual filter, so the
// result never depends on push-down.
expr::ExprPtr ToIcebergFilter(const ScalarExpr& predicate, const Scope& scope);
// The whole predicate as one Iceberg expression, for a filter nothing evaluates after the scan
// (`floe scan --filter`): the rows where it is TRUE, or kInvalidArgument naming the first part
// that has no exact Iceberg form.
Result<expr::ExprPtr> ToExactIcebergFilter(const ScalarExpr& predicate, const Scope& scope);

// Rows of `input` where `predicate` (boolean) is true; null counts as false.
Result<RecordBatch> FilterBatch(const RecordBatch& input, const ScalarExpr& predicate);

}  // namespace floe::sql
