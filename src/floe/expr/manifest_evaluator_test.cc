#include "floe/expr/manifest_evaluator.h"

#include <gtest/gtest.h>

#include "floe/expr/test_schema.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::expr {
namespace {

std::string Bin(const Literal& v) { return v.ToBinary().value(); }

// Partitioned by id (identity), day(ts), truncate[2](data), d (identity).
PartitionSpecPtr Spec() {
  auto spec = PartitionSpec::Make(
      *testing::TestSchema(), 0,
      {PartitionField{
           .source_ids = {1}, .field_id = 1000, .name = "id", .transform = Transform::Identity()},
       PartitionField{
           .source_ids = {5}, .field_id = 1001, .name = "ts_day", .transform = Transform::Day()},
       PartitionField{.source_ids = {2},
                      .field_id = 1002,
                      .name = "data_trunc",
                      .transform = Transform::Truncate(2)},
       PartitionField{
           .source_ids = {4}, .field_id = 1003, .name = "d", .transform = Transform::Identity()}});
  EXPECT_TRUE(spec.has_value());
  return *spec;
}

// id in [10, 20]; days 1970-01-05..1970-01-10 with nulls; data_trunc "ab".."cd"; d all NaN.
std::vector<PartitionFieldSummary> Summaries() {
  return {
      {.contains_null = false,
       .contains_nan = std::nullopt,
       .lower_bound = Bin(Literal::Long(10)),
       .upper_bound = Bin(Literal::Long(20))},
      {.contains_null = true,
       .contains_nan = std::nullopt,
       .lower_bound = Bin(Literal::Date(4)),
       .upper_bound = Bin(Literal::Date(9))},
      {.contains_null = false,
       .contains_nan = std::nullopt,
       .lower_bound = Bin(Literal::String("ab")),
       .upper_bound = Bin(Literal::String("cd"))},
      {.contains_null = false,
       .contains_nan = true,
       .lower_bound = std::nullopt,
       .upper_bound = std::nullopt},
  };
}

bool Might(const ExprPtr& filter, std::vector<PartitionFieldSummary> s = Summaries()) {
  auto ev = ManifestEvaluator::Make(filter, *testing::TestSchema(), *Spec());
  EXPECT_TRUE(ev.has_value()) << ev.error().ToString();
  if (!ev) return false;
  auto r = ev->MightMatch(s);
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return r.value_or(false);
}

Literal L(int64_t v) { return Literal::Long(v); }

TEST(ManifestEvaluatorTest, IdentityBounds) {
  EXPECT_FALSE(Might(LessThan("id", L(10))));
  EXPECT_TRUE(Might(LessThanOrEqual("id", L(10))));
  EXPECT_FALSE(Might(GreaterThan("id", L(20))));
  EXPECT_TRUE(Might(GreaterThanOrEqual("id", L(20))));
  EXPECT_FALSE(Might(Equal("id", L(21))));
  EXPECT_TRUE(Might(Equal("id", L(15))));
  EXPECT_TRUE(Might(NotEqual("id", L(15))));
  EXPECT_FALSE(Might(In("id", {L(1), L(30)})));
  EXPECT_TRUE(Might(In("id", {L(1), L(11)})));
  EXPECT_TRUE(Might(NotIn("id", {L(10)})));
  EXPECT_TRUE(Might(Or(Equal("id", L(1)), Equal("id", L(12)))));
  EXPECT_FALSE(Might(And(Equal("id", L(12)), Equal("id", L(1)))));
  // Columns the spec does not partition by never prune.
  EXPECT_TRUE(Might(Equal("i", Literal::Int(1))));
}

TEST(ManifestEvaluatorTest, TransformedFields) {
  // The lower bound is day 4, 1970-01-05. ts < 1970-01-05T00:00:01 projects to
  // ts_day <= 1970-01-05 and may match; ts < 1970-01-05T00:00 projects to ts_day <= 1970-01-04.
  EXPECT_TRUE(Might(LessThan("ts", Literal::String("1970-01-05T00:00:01"))));
  EXPECT_FALSE(Might(LessThan("ts", Literal::String("1970-01-05T00:00:00"))));
  EXPECT_FALSE(Might(GreaterThanOrEqual("ts", Literal::String("1970-01-11T00:00:00"))));
  EXPECT_TRUE(Might(IsNull("ts")));
  EXPECT_FALSE(Might(IsNull("data")));
  EXPECT_TRUE(Might(StartsWith("data", "b")));
  EXPECT_FALSE(Might(StartsWith("data", "d")));
  EXPECT_FALSE(Might(StartsWith("data", "aa")));
  EXPECT_TRUE(Might(Equal("data", Literal::String("cdxyz"))));  // truncated to "cd"
  EXPECT_FALSE(Might(Equal("data", Literal::String("cez"))));
}

TEST(ManifestEvaluatorTest, NullsAndNaNs) {
  EXPECT_TRUE(Might(IsNan("d")));
  EXPECT_FALSE(Might(NotNan("d")));  // NaN only
  EXPECT_FALSE(Might(Equal("d", Literal::Double(1))));
  EXPECT_FALSE(Might(IsNull("d")));
  auto s = Summaries();
  s[3] = {.contains_null = true,
          .contains_nan = false,
          .lower_bound = std::nullopt,
          .upper_bound = std::nullopt};  // all null
  EXPECT_FALSE(Might(NotNull("d"), s));
  EXPECT_FALSE(Might(IsNan("d"), s));
  EXPECT_TRUE(Might(IsNull("d"), s));
  s[3].contains_nan = std::nullopt;  // unknown NaNs: may not be all null
  EXPECT_TRUE(Might(NotNull("d"), s));
}

TEST(ManifestEvaluatorTest, Errors) {
  EXPECT_FALSE(
      ManifestEvaluator::Make(Equal("nope", L(1)), *testing::TestSchema(), *Spec()).has_value());
  auto ev = ManifestEvaluator::Make(Equal("id", L(1)), *testing::TestSchema(), *Spec());
  ASSERT_TRUE(ev.has_value());
  auto s = Summaries();
  s.pop_back();
  EXPECT_FALSE(ev->MightMatch(s).has_value());
  s = Summaries();
  s[0].lower_bound = std::string(1, 'x');  // a long needs 8 bytes
  EXPECT_FALSE(ev->MightMatch(s).has_value());
}

}  // namespace
}  // namespace floe::expr
