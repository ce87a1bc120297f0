#include "floe/expr/expression.h"

#include <gtest/gtest.h>

#include <cmath>

#include "floe/expr/test_schema.h"
#include "floe/spec/schema.h"
#include "floe/testing/testing.h"

namespace floe::expr {
namespace {

using testing::TestSchema;

ExprPtr BindOrDie(const ExprPtr& e, bool case_sensitive = true) {
  auto bound = Bind(e, *TestSchema(), case_sensitive);
  EXPECT_TRUE(bound.has_value()) << bound.error().ToString();
  return bound ? *bound : False();
}

TEST(ExpressionTest, FoldsConstants) {
  auto p = LessThan("id", Literal::Long(5));
  EXPECT_EQ(And(True(), p), p);
  EXPECT_EQ(And(p, False())->op(), Op::kFalse);
  EXPECT_EQ(Or(p, True())->op(), Op::kTrue);
  EXPECT_EQ(Or(False(), p), p);
  EXPECT_EQ(Not(True())->op(), Op::kFalse);
  EXPECT_EQ(Not(Not(p)), p);
}

TEST(ExpressionTest, RewriteNotPushesNegationIntoPredicates) {
  auto e = Not(And(LessThan("id", Literal::Long(5)),
                   Or(IsNull("data"), In("i", {Literal::Int(1), Literal::Int(2)}))));
  EXPECT_EQ(RewriteNot(e)->ToString(), "(id >= 5 or (data is not null and i not in (1, 2)))");
  EXPECT_EQ(RewriteNot(Not(StartsWith("data", "ab")))->ToString(), "data not_starts_with 'ab'");
  EXPECT_EQ(RewriteNot(Not(Not(IsNan("d"))))->ToString(), "d is nan");
  for (Op op :
       {Op::kLt, Op::kLtEq, Op::kGt, Op::kGtEq, Op::kEq, Op::kNotEq, Op::kIn, Op::kNotIn,
        Op::kIsNull, Op::kNotNull, Op::kIsNan, Op::kNotNan, Op::kStartsWith, Op::kNotStartsWith}) {
    EXPECT_EQ(NegateOp(NegateOp(op)), op);
    EXPECT_NE(NegateOp(op), op);
  }
}

TEST(ExpressionTest, BindsByNameToFieldIdsAndTypes) {
  auto bound = BindOrDie(GreaterThan("i", Literal::Long(7)));
  ASSERT_TRUE(bound->is_bound());
  EXPECT_EQ(bound->field_id(), 7);
  EXPECT_EQ(bound->literal(), Literal::Int(7));
  auto insensitive = BindOrDie(Equal("DATA", Literal::String("x")), false);
  EXPECT_EQ(insensitive->field_id(), 2);
  EXPECT_EQ(insensitive->column(), "data");
  auto missing = Bind(Equal("DATA", Literal::String("x")), *TestSchema(), true);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message().find("'DATA'"), std::string::npos);
}

TEST(ExpressionTest, ConvertsLiteralsToTheColumnType) {
  EXPECT_EQ(BindOrDie(Equal("id", Literal::Int(3)))->literal(), Literal::Long(3));
  EXPECT_EQ(BindOrDie(Equal("d", Literal::Long(3)))->literal(), Literal::Double(3.0));
  EXPECT_EQ(BindOrDie(Equal("f", Literal::Double(1.5)))->literal(), Literal::Float(1.5f));
  EXPECT_EQ(BindOrDie(Equal("dec", Literal::Long(12)))->literal(), Literal::Decimal(1200, 9, 2));
  EXPECT_EQ(BindOrDie(Equal("dec", Literal::Decimal(125, 38, 1)))->literal(),
            Literal::Decimal(1250, 9, 2));
  EXPECT_EQ(BindOrDie(Equal("dec", Literal::String("-3.10")))->literal(),
            Literal::Decimal(-310, 9, 2));
  EXPECT_EQ(BindOrDie(Equal("day", Literal::String("1970-01-02")))->literal(), Literal::Date(1));
  EXPECT_EQ(BindOrDie(Equal("day", Literal::String("1969-12-31")))->literal(), Literal::Date(-1));
  EXPECT_EQ(BindOrDie(Equal("ts", Literal::String("1970-01-01T00:00:01")))->literal(),
            Literal::Timestamp(1000000));
  EXPECT_EQ(BindOrDie(Equal("tstz", Literal::String("1970-01-01T01:00:00+01:00")))->literal(),
            Literal::TimestampTz(0));
  EXPECT_EQ(BindOrDie(Equal("d", Literal::Decimal(25, 38, 1)))->literal(), Literal::Double(2.5));
}

TEST(ExpressionTest, RejectsLiteralsThatDoNotConvert) {
  auto bad = [](ExprPtr e) {
    auto r = Bind(e, *TestSchema());
    EXPECT_FALSE(r.has_value()) << e->ToString();
    return r ? std::string() : r.error().message();
  };
  EXPECT_NE(bad(Equal("day", Literal::String("yesterday"))).find("yesterday"), std::string::npos);
  EXPECT_NE(bad(Equal("dec", Literal::String("1.234"))).find("rounding"), std::string::npos);
  EXPECT_NE(bad(Equal("dec", Literal::Long(12345678901))).find("does not fit"), std::string::npos);
  bad(Equal("id", Literal::String("5")));
  bad(Equal("data", Literal::Long(5)));
  bad(Equal("d", Literal::Double(std::nan(""))));
  bad(IsNan("id"));
  bad(StartsWith("id", "1"));
  bad(Predicate(Op::kLt, "id"));
  bad(Equal("id", Literal::Null(types::Long())));
}

TEST(ExpressionTest, LongsBeyondAnIntColumnFoldToConstants) {
  Literal big = Literal::Long(int64_t{1} << 40);
  Literal small = Literal::Long(-(int64_t{1} << 40));
  EXPECT_EQ(BindOrDie(LessThan("i", big))->op(), Op::kTrue);
  EXPECT_EQ(BindOrDie(GreaterThanOrEqual("i", big))->op(), Op::kFalse);
  EXPECT_EQ(BindOrDie(GreaterThan("i", small))->op(), Op::kTrue);
  EXPECT_EQ(BindOrDie(LessThanOrEqual("i", small))->op(), Op::kFalse);
  EXPECT_EQ(BindOrDie(Equal("i", big))->op(), Op::kFalse);
  EXPECT_EQ(BindOrDie(NotEqual("i", big))->op(), Op::kTrue);
  EXPECT_EQ(BindOrDie(In("i", {big, Literal::Long(3)}))->ToString(), "i = 3");
}

TEST(ExpressionTest, BindingSimplifies) {
  EXPECT_EQ(BindOrDie(IsNull("id"))->op(), Op::kFalse);  // id is required
  EXPECT_EQ(BindOrDie(NotNull("id"))->op(), Op::kTrue);
  EXPECT_EQ(BindOrDie(Not(And(IsNull("id"), Equal("i", Literal::Int(1)))))->op(), Op::kTrue);
  EXPECT_EQ(BindOrDie(In("i", {Literal::Int(1), Literal::Int(1)}))->op(), Op::kEq);
  EXPECT_EQ(BindOrDie(NotIn("i", {Literal::Int(2)}))->op(), Op::kNotEq);
  EXPECT_EQ(BindOrDie(Not(LessThan("i", Literal::Int(1))))->ToString(), "i >= 1");
}

}  // namespace
}  // namespace floe::expr
