#include "floe/expr/residual_evaluator.h"

#include <gtest/gtest.h>

#include "floe/expr/test_schema.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::expr {
namespace {

constexpr int64_t kDayMicros = 86400LL * 1000000;

ExprPtr B(const ExprPtr& e) {
  auto bound = Bind(e, *testing::TestSchema());
  EXPECT_TRUE(bound.has_value()) << bound.error().ToString();
  return bound ? *bound : False();
}

std::string Residual(const ExprPtr& filter, const PartitionSpec& spec,
                     std::vector<Literal> partition) {
  auto r = ResidualEvaluator::Make(B(filter), spec).ResidualFor(partition);
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return r ? (*r)->ToString() : "error";
}

TEST(ResidualEvaluatorTest, IdentityPartitionsDecideTheirPredicates) {
  PartitionSpec spec(0, {PartitionField{.source_ids = {2},
                                        .field_id = 1000,
                                        .name = "data",
                                        .transform = Transform::Identity()}});
  auto filter = And(Equal("data", Literal::String("a")), GreaterThan("id", Literal::Long(5)));
  EXPECT_EQ(Residual(filter, spec, {Literal::String("a")}), "id > 5");
  EXPECT_EQ(Residual(filter, spec, {Literal::String("b")}), "false");
  EXPECT_EQ(Residual(Or(filter, IsNull("data")), spec, {Literal::Null(types::String())}), "true");
  EXPECT_EQ(
      Residual(NotEqual("data", Literal::String("a")), spec, {Literal::Null(types::String())}),
      "true");
}

TEST(ResidualEvaluatorTest, TimeTransforms) {
  PartitionSpec spec(
      0,
      {PartitionField{
          .source_ids = {5}, .field_id = 1000, .name = "ts_day", .transform = Transform::Day()}});
  auto filter = LessThan("ts", Literal::Timestamp(2 * kDayMicros + 7));
  // Day 1 lies wholly before the bound; day 2 straddles it; day 3 is wholly after.
  EXPECT_EQ(Residual(filter, spec, {Literal::Date(1)}), "true");
  EXPECT_EQ(Residual(filter, spec, {Literal::Date(2)}), B(filter)->ToString());
  EXPECT_EQ(Residual(filter, spec, {Literal::Date(3)}), "false");
  // Before 1970 a partition may hold the previous day's rows (old writers): never settled by
  // the strict side for > on the boundary day.
  auto after = GreaterThanOrEqual("ts", Literal::Timestamp(-kDayMicros));
  EXPECT_EQ(Residual(after, spec, {Literal::Date(-1)}), B(after)->ToString());
  EXPECT_EQ(Residual(after, spec, {Literal::Date(1)}), "true");
  EXPECT_EQ(Residual(after, spec, {Literal::Date(-3)}), "false");
}

TEST(ResidualEvaluatorTest, UnpartitionedAndBucketKeepTheFilter) {
  auto filter = B(Equal("id", Literal::Long(34)));
  auto r = ResidualEvaluator::Make(filter, *PartitionSpec::Unpartitioned()).ResidualFor({});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, filter);
  PartitionSpec bucket(
      0,
      {PartitionField{
          .source_ids = {1}, .field_id = 1000, .name = "b", .transform = Transform::Bucket(16)}});
  EXPECT_EQ(Residual(Equal("id", Literal::Long(34)), bucket, {Literal::Int(3)}), "id = 34");
  EXPECT_EQ(Residual(Equal("id", Literal::Long(34)), bucket, {Literal::Int(4)}), "false");
  EXPECT_FALSE(ResidualEvaluator::Make(filter, bucket).ResidualFor({}).has_value());
}

}  // namespace
}  // namespace floe::expr
