#include "floe/expr/evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "floe/expr/test_schema.h"
#include "floe/spec/schema.h"

namespace floe::expr {
namespace {

bool Eval(const ExprPtr& e, const std::map<int32_t, Literal>& row) {
  auto bound = Bind(e, *testing::TestSchema());
  EXPECT_TRUE(bound.has_value()) << bound.error().ToString();
  if (!bound) return false;
  return Evaluate(**bound, [&](int32_t id) -> const Literal* {
    auto it = row.find(id);
    return it == row.end() ? nullptr : &it->second;
  });
}

TEST(EvaluatorTest, Comparisons) {
  std::map<int32_t, Literal> row{{1, Literal::Long(5)}, {2, Literal::String("abc")}};
  EXPECT_TRUE(Eval(LessThan("id", Literal::Long(6)), row));
  EXPECT_FALSE(Eval(LessThan("id", Literal::Long(5)), row));
  EXPECT_TRUE(Eval(LessThanOrEqual("id", Literal::Long(5)), row));
  EXPECT_FALSE(Eval(GreaterThan("id", Literal::Long(5)), row));
  EXPECT_TRUE(Eval(GreaterThanOrEqual("id", Literal::Long(5)), row));
  EXPECT_TRUE(Eval(Equal("id", Literal::Long(5)), row));
  EXPECT_FALSE(Eval(NotEqual("id", Literal::Long(5)), row));
  EXPECT_TRUE(Eval(In("id", {Literal::Long(1), Literal::Long(5)}), row));
  EXPECT_FALSE(Eval(NotIn("id", {Literal::Long(1), Literal::Long(5)}), row));
  EXPECT_TRUE(Eval(StartsWith("data", "ab"), row));
  EXPECT_FALSE(Eval(StartsWith("data", "abcd"), row));
  EXPECT_TRUE(Eval(NotStartsWith("data", "b"), row));
  EXPECT_TRUE(Eval(Not(And(Equal("id", Literal::Long(5)), StartsWith("data", "x"))), row));
  EXPECT_TRUE(Eval(Or(Equal("id", Literal::Long(4)), StartsWith("data", "a")), row));
}

TEST(EvaluatorTest, NullsFailComparisonsAndPassNegations) {
  std::map<int32_t, Literal> row{{1, Literal::Long(5)}, {7, Literal::Null(types::Int())}};
  for (const auto& e : {LessThan("i", Literal::Int(1)), GreaterThan("i", Literal::Int(1)),
                        Equal("i", Literal::Int(1)), In("i", {Literal::Int(1), Literal::Int(2)}),
                        StartsWith("data", "a"), NotNull("i")}) {
    EXPECT_FALSE(Eval(e, row)) << e->ToString();
  }
  for (const auto& e :
       {NotEqual("i", Literal::Int(1)), NotIn("i", {Literal::Int(1), Literal::Int(2)}),
        NotStartsWith("data", "a"), IsNull("i"), IsNull("data"), NotNan("d")}) {
    EXPECT_TRUE(Eval(e, row)) << e->ToString();
  }
}

TEST(EvaluatorTest, NaN) {
  std::map<int32_t, Literal> row{
      {1, Literal::Long(1)}, {4, Literal::Double(std::nan(""))}, {3, Literal::Float(2.5f)}};
  EXPECT_TRUE(Eval(IsNan("d"), row));
  EXPECT_FALSE(Eval(NotNan("d"), row));
  EXPECT_FALSE(Eval(IsNan("f"), row));
  EXPECT_TRUE(Eval(NotNan("f"), row));
  EXPECT_FALSE(Eval(IsNan("d"), {{1, Literal::Long(1)}}));  // null is not NaN
  EXPECT_FALSE(Eval(Equal("d", Literal::Double(1.0)), row));
  EXPECT_TRUE(Eval(NotEqual("d", Literal::Double(1.0)), row));
  EXPECT_TRUE(Eval(Equal("f", Literal::Double(2.5)), row));
}

}  // namespace
}  // namespace floe::expr
