// Push-down checked against the Iceberg row evaluator (expr/evaluator.h): for random WHERE
// predicates over random rows with nulls, every row SQL keeps passes the pushed filter, and when
// the whole predicate is pushed the filter keeps exactly SQL's rows. The exact conversion (for
// `floe scan --filter`) gives that filter for every pushable predicate, IS [NOT] NAN among them,
// and otherwise an error naming the part that does not map.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "floe/expr/evaluator.h"
#include "floe/spec/schema.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/syntax/parser.h"

namespace floe::sql {
namespace {

struct Generated {
  std::string sql;
  bool pushable = true;
};

Generated RandomPredicate(std::mt19937& random, int depth) {
  auto k = [&] { return std::to_string(static_cast<int>(random() % 7) - 1); };
  const int choice = static_cast<int>(random() % (depth > 0 ? 14 : 11));
  switch (choice) {
    case 0:
      return {"a < " + k()};
    case 1:
      return {"a = " + k()};
    case 2:
      return {"a <> " + k()};
    case 3:
      return {k() + " <= b"};
    case 4:
      return {"a IS NULL"};
    case 5:
      return {"b IS NOT NULL"};
    case 6:
      return {"a IN (" + k() + ", " + k() + ")"};
    case 7:
      return {"b NOT IN (" + k() + ", " + k() + ")"};
    case 8:
      return {"a BETWEEN " + k() + " AND " + k()};
    case 9:
      return {"b NOT BETWEEN " + k() + " AND " + k()};
    case 10:
      return {"a + b > " + k(), false};
    case 11: {
      Generated inner = RandomPredicate(random, depth - 1);
      return {"NOT (" + inner.sql + ")", inner.pushable};
    }
    default: {
      Generated left = RandomPredicate(random, depth - 1);
      Generated right = RandomPredicate(random, depth - 1);
      const char* op = choice == 12 ? " AND " : " OR ";
      return {"(" + left.sql + op + right.sql + ")", left.pushable && right.pushable};
    }
  }
}

// Row `row` of the columns as literals of the schema's fields (int or double), for the Iceberg
// row evaluator.
std::vector<Literal> RowLiterals(const Schema& schema,
                                 const std::vector<const std::vector<Value>*>& columns,
                                 int64_t row) {
  std::vector<Literal> literals;
  for (size_t i = 0; i < columns.size(); ++i) {
    const Value& v = (*columns[i])[row];
    const TypePtr& type = schema.fields()[i].type;
    if (v.is_null()) {
      literals.push_back(Literal::Null(type));
    } else if (type->id() == TypeId::kDouble) {
      literals.push_back(Literal::Double(v.get<double>()));
    } else {
      literals.push_back(Literal::Int(static_cast<int32_t>(v.get<int64_t>())));
    }
  }
  return literals;
}

TEST(PushDownTest, IcebergFilterAgreesWithSql) {
  std::mt19937 random(11);
  std::vector<Value> a_values, b_values;
  for (int i = 0; i < 200; ++i) {
    auto v = [&] {
      return random() % 5 == 0 ? Value() : Value(static_cast<int>(random() % 7) - 1);
    };
    a_values.push_back(v());
    b_values.push_back(v());
  }
  auto batch_schema = std::make_shared<BatchSchema>(std::vector<Field>{
      {"a", ::floe::DataType::Int32(), true, 1}, {"b", ::floe::DataType::Int32(), true, 2}});
  auto batch = RecordBatch::Make(batch_schema, {*MakeArray(::floe::DataType::Int32(), a_values),
                                                *MakeArray(::floe::DataType::Int32(), b_values)});
  ASSERT_TRUE(batch);
  const Scope scope = Scope::ForSchema(*batch_schema, "t");
  const Schema iceberg(std::vector<NestedField>{NestedField{1, "a", types::Int()},
                                                NestedField{2, "b", types::Int()}});
  int exact = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Generated predicate = RandomPredicate(random, 3);
    auto bound = BindScalar(**ParseExpression(predicate.sql), scope);
    ASSERT_TRUE(bound) << predicate.sql << ": " << bound.error().ToString();
    auto sql = (*bound)->Evaluate(*batch);
    ASSERT_TRUE(sql) << predicate.sql;
    expr::ExprPtr filter = ToIcebergFilter(**bound, scope);
    auto iceberg_filter = expr::Bind(filter, iceberg);
    ASSERT_TRUE(iceberg_filter) << filter->ToString() << ": " << iceberg_filter.error().ToString();
    exact += predicate.pushable;
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      const std::vector<Literal> literals = RowLiterals(iceberg, {&a_values, &b_values}, row);
      const bool kept =
          expr::Evaluate(**iceberg_filter, [&](int32_t id) { return &literals[id - 1]; });
      const bool sql_true = sql->IsValid(row) && sql->GetBool(row);
      if (sql_true) {
        EXPECT_TRUE(kept) << predicate.sql << " -> " << filter->ToString() << " row " << row;
      }
      if (predicate.pushable) {
        EXPECT_EQ(kept, sql_true) << predicate.sql << " -> " << filter->ToString() << " row "
                                  << row;
      }
    }
  }
  EXPECT_GT(exact, 50);
}

// RandomPredicate's predicates on a and b, and IS [NOT] NAN on the double d.
Generated RandomWithNan(std::mt19937& random, int depth) {
  switch (random() % 5) {
    case 0:
      return {"d IS NAN"};
    case 1:
      return {"NOT d IS NOT NAN"};
    case 2: {
      Generated left = RandomWithNan(random, depth - 1);
      Generated right = RandomPredicate(random, depth - 1);
      return {"(" + left.sql + " OR d IS NOT NAN AND " + right.sql + ")",
              left.pushable && right.pushable};
    }
    default:
      return RandomPredicate(random, depth);
  }
}

TEST(PushDownTest, ExactFilterKeepsSqlsRowsOrNamesWhatDoesNotMap) {
  std::mt19937 random(23);
  std::vector<Value> a_values, b_values, d_values;
  for (int i = 0; i < 200; ++i) {
    auto v = [&] {
      return random() % 5 == 0 ? Value() : Value(static_cast<int>(random() % 7) - 1);
    };
    a_values.push_back(v());
    b_values.push_back(v());
    const int d = static_cast<int>(random() % 4);
    d_values.push_back(d == 0   ? Value()
                       : d == 1 ? Value(std::numeric_limits<double>::quiet_NaN())
                                : Value(d * 0.5));
  }
  auto batch_schema = std::make_shared<BatchSchema>(
      std::vector<Field>{{"a", ::floe::DataType::Int32(), true, 1},
                         {"b", ::floe::DataType::Int32(), true, 2},
                         {"d", ::floe::DataType::Float64(), true, 3}});
  auto batch = RecordBatch::Make(batch_schema, {*MakeArray(::floe::DataType::Int32(), a_values),
                                                *MakeArray(::floe::DataType::Int32(), b_values),
                                                *MakeArray(::floe::DataType::Float64(), d_values)});
  ASSERT_TRUE(batch);
  const Scope scope = Scope::ForSchema(*batch_schema);
  const Schema iceberg(std::vector<NestedField>{NestedField{1, "a", types::Int()},
                                                NestedField{2, "b", types::Int()},
                                                NestedField{3, "d", types::Double()}});
  int pushable = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Generated predicate = RandomWithNan(random, 3);
    auto bound = BindScalar(**ParseExpression(predicate.sql), scope);
    ASSERT_TRUE(bound) << predicate.sql << ": " << bound.error().ToString();
    Result<expr::ExprPtr> filter = ToExactIcebergFilter(**bound, scope);
    if (!predicate.pushable) {
      ASSERT_FALSE(filter) << predicate.sql << " -> " << (*filter)->ToString();
      EXPECT_NE(filter.error().message().find("'`a` + `b` > "), std::string::npos)
          << filter.error().message();
      continue;
    }
    ++pushable;
    ASSERT_TRUE(filter) << predicate.sql << ": " << filter.error().ToString();
    auto sql = (*bound)->Evaluate(*batch);
    ASSERT_TRUE(sql) << predicate.sql;
    auto iceberg_filter = expr::Bind(*filter, iceberg);
    ASSERT_TRUE(iceberg_filter) << (*filter)->ToString();
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      const std::vector<Literal> literals =
          RowLiterals(iceberg, {&a_values, &b_values, &d_values}, row);
      const bool kept =
          expr::Evaluate(**iceberg_filter, [&](int32_t id) { return &literals[id - 1]; });
      EXPECT_EQ(kept, sql->IsValid(row) && sql->GetBool(row))
          << predicate.sql << " -> " << (*filter)->ToString() << " row " << row;
    }
  }
  EXPECT_GT(pushable, 100);
}

TEST(PushDownTest, IsNanNeedsAFloatingOperand) {
  const Scope scope({ScopeColumn{"", "i", ::floe::DataType::Int32(), true, 1}});
  auto bound = BindScalar(**ParseExpression("i IS NOT NAN"), scope);
  ASSERT_FALSE(bound);
  EXPECT_EQ(bound.error().message(),
            "line 1, column 1: IS NAN needs a FLOAT or DOUBLE operand, not INT");
}

}  // namespace
}  // namespace floe::sql
