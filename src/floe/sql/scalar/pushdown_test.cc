// Push-down checked against the Iceberg row evaluator (expr/evaluator.h): for random WHERE
// predicates over random rows with nulls, every row SQL keeps passes the pushed filter, and when
// the whole predicate is pushed the filter keeps exactly SQL's rows.

#include <gtest/gtest.h>

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
      std::vector<Literal> literals;
      for (const auto* values : {&a_values, &b_values}) {
        const Value& v = (*values)[row];
        literals.push_back(v.is_null() ? Literal::Null(types::Int())
                                       : Literal::Int(static_cast<int32_t>(v.get<int64_t>())));
      }
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

}  // namespace
}  // namespace floe::sql
