#include "floe/expr/metrics_evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "floe/expr/test_schema.h"
#include "floe/spec/schema.h"

namespace floe::expr {
namespace {

std::string Bin(const Literal& v) {
  auto b = v.ToBinary();
  EXPECT_TRUE(b.has_value());
  return b ? *b : "";
}

// 50 rows: id in [30, 79] with no nulls; data in ["abc", "abe"] with 10 nulls; f with 5 NaNs and
// bounds [1, 2]; d all null; i has no metrics at all; dec all NaN-free with bounds missing.
DataFileMetrics File() {
  DataFileMetrics m;
  m.record_count = 50;
  m.value_counts = {{1, 50}, {2, 50}, {3, 50}, {4, 50}};
  m.null_value_counts = {{1, 0}, {2, 10}, {3, 0}, {4, 50}};
  m.nan_value_counts = {{3, 5}, {4, 0}};
  m.lower_bounds = {{1, Bin(Literal::Long(30))},
                    {2, Bin(Literal::String("abc"))},
                    {3, Bin(Literal::Float(1.0f))}};
  m.upper_bounds = {{1, Bin(Literal::Long(79))},
                    {2, Bin(Literal::String("abe"))},
                    {3, Bin(Literal::Float(2.0f))}};
  return m;
}

ExprPtr B(const ExprPtr& e) {
  auto bound = Bind(e, *testing::TestSchema());
  EXPECT_TRUE(bound.has_value()) << bound.error().ToString();
  return bound ? *bound : False();
}

bool Might(const ExprPtr& e, const DataFileMetrics& m = File()) {
  auto r = InclusiveMetricsEvaluator(B(e)).MightMatch(m);
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return r.value_or(false);
}

bool All(const ExprPtr& e, const DataFileMetrics& m = File()) {
  auto r = StrictMetricsEvaluator(B(e)).AllMatch(m);
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return r.value_or(false);
}

Literal L(int64_t v) { return Literal::Long(v); }

TEST(InclusiveMetricsTest, Bounds) {
  EXPECT_FALSE(Might(LessThan("id", L(30))));
  EXPECT_TRUE(Might(LessThan("id", L(31))));
  EXPECT_FALSE(Might(LessThanOrEqual("id", L(29))));
  EXPECT_TRUE(Might(LessThanOrEqual("id", L(30))));
  EXPECT_FALSE(Might(GreaterThan("id", L(79))));
  EXPECT_TRUE(Might(GreaterThan("id", L(78))));
  EXPECT_FALSE(Might(GreaterThanOrEqual("id", L(80))));
  EXPECT_TRUE(Might(GreaterThanOrEqual("id", L(79))));
  EXPECT_FALSE(Might(Equal("id", L(29))));
  EXPECT_FALSE(Might(Equal("id", L(80))));
  EXPECT_TRUE(Might(Equal("id", L(30))));
  EXPECT_TRUE(Might(NotEqual("id", L(30))));
  EXPECT_FALSE(Might(In("id", {L(1), L(80)})));
  EXPECT_TRUE(Might(In("id", {L(1), L(79)})));
  EXPECT_TRUE(Might(NotIn("id", {L(30), L(31)})));
  EXPECT_FALSE(Might(And(GreaterThan("id", L(5)), LessThan("id", L(30)))));
  EXPECT_TRUE(Might(Or(GreaterThan("id", L(100)), LessThan("id", L(31)))));
  // More values than worth checking: assume a match.
  std::vector<Literal> many;
  for (int i = 0; i < 300; ++i) many.push_back(L(1000 + i));
  EXPECT_TRUE(Might(In("id", many)));
}

TEST(InclusiveMetricsTest, NullsAndNaNs) {
  EXPECT_FALSE(Might(IsNull("f")));  // no nulls
  EXPECT_TRUE(Might(IsNull("data")));
  EXPECT_FALSE(Might(NotNull("d")));  // all null
  EXPECT_TRUE(Might(NotNull("data")));
  EXPECT_FALSE(Might(LessThan("d", Literal::Double(1))));  // all null: no value compares
  EXPECT_FALSE(Might(Equal("d", Literal::Double(1))));
  EXPECT_TRUE(Might(NotEqual("d", Literal::Double(1))));
  EXPECT_TRUE(Might(IsNan("f")));
  EXPECT_FALSE(Might(IsNan("d")));  // nan count 0
  EXPECT_TRUE(Might(NotNan("f")));
  DataFileMetrics nans = File();
  nans.nan_value_counts[3] = 50;
  nans.lower_bounds.erase(3);
  nans.upper_bounds.erase(3);
  EXPECT_FALSE(Might(NotNan("f"), nans));
  EXPECT_FALSE(Might(Equal("f", Literal::Float(1)), nans));
  EXPECT_TRUE(Might(IsNan("f"), nans));
  // A NaN lower bound (old writers) is ignored rather than trusted.
  DataFileMetrics nan_bound = File();
  nan_bound.lower_bounds[3] = Bin(Literal::Float(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_TRUE(Might(LessThan("f", Literal::Float(0.5f)), nan_bound));
  EXPECT_FALSE(Might(GreaterThan("f", Literal::Float(2.0f)), nan_bound));
}

TEST(InclusiveMetricsTest, MissingMetricsNeverPrune) {
  for (const auto& e : {LessThan("i", Literal::Int(0)), Equal("i", Literal::Int(0)), IsNull("i"),
                        NotNull("i"), GreaterThan("dec", L(1)), NotNan("d")}) {
    EXPECT_TRUE(Might(e)) << e->ToString();
  }
  DataFileMetrics unknown;
  EXPECT_TRUE(Might(Equal("id", L(1)), unknown));
  DataFileMetrics empty;
  empty.record_count = 0;
  EXPECT_FALSE(Might(True(), empty));
}

TEST(InclusiveMetricsTest, StringPrefixesAndTruncatedBounds) {
  EXPECT_TRUE(Might(StartsWith("data", "ab")));
  EXPECT_TRUE(Might(StartsWith("data", "abd")));
  EXPECT_FALSE(Might(StartsWith("data", "abf")));
  EXPECT_FALSE(Might(StartsWith("data", "abb")));
  EXPECT_FALSE(Might(StartsWith("data", "b")));
  EXPECT_TRUE(Might(StartsWith("data", "")));
  // Bounds truncated to 2 characters: lower "ab" (a prefix of the minimum), upper "ac".
  DataFileMetrics cut = File();
  cut.null_value_counts[2] = 0;
  cut.lower_bounds[2] = Bin(Literal::String("ab"));
  cut.upper_bounds[2] = Bin(Literal::String("ac"));
  EXPECT_TRUE(Might(StartsWith("data", "abzzz"), cut));
  EXPECT_TRUE(Might(Equal("data", Literal::String("abzzz")), cut));
  EXPECT_FALSE(Might(Equal("data", Literal::String("ad")), cut));
  EXPECT_TRUE(Might(NotStartsWith("data", "ab"), cut));  // upper "ac" is beyond the prefix
  DataFileMetrics same = File();
  same.null_value_counts[2] = 0;
  EXPECT_FALSE(Might(NotStartsWith("data", "ab"), same));  // every value starts with "ab"
  EXPECT_TRUE(Might(NotStartsWith("data", "ab")));         // nulls match not_starts_with
}

TEST(StrictMetricsTest, Bounds) {
  EXPECT_TRUE(All(LessThan("id", L(80))));
  EXPECT_FALSE(All(LessThan("id", L(79))));
  EXPECT_TRUE(All(LessThanOrEqual("id", L(79))));
  EXPECT_TRUE(All(GreaterThan("id", L(29))));
  EXPECT_FALSE(All(GreaterThan("id", L(30))));
  EXPECT_TRUE(All(GreaterThanOrEqual("id", L(30))));
  EXPECT_FALSE(All(Equal("id", L(30))));
  EXPECT_TRUE(All(NotEqual("id", L(29))));
  EXPECT_TRUE(All(NotEqual("id", L(80))));
  EXPECT_FALSE(All(NotEqual("id", L(50))));
  EXPECT_TRUE(All(NotIn("id", {L(1), L(80)})));
  EXPECT_FALSE(All(NotIn("id", {L(1), L(50)})));
  EXPECT_FALSE(All(In("id", {L(30), L(79)})));
  DataFileMetrics one = File();
  one.lower_bounds[1] = Bin(L(42));
  one.upper_bounds[1] = Bin(L(42));
  EXPECT_TRUE(All(Equal("id", L(42)), one));
  EXPECT_TRUE(All(In("id", {L(1), L(42)}), one));
  EXPECT_TRUE(All(And(GreaterThan("id", L(0)), LessThan("id", L(100)))));
  EXPECT_FALSE(All(Or(GreaterThan("id", L(50)), LessThan("id", L(40)))));
}

TEST(StrictMetricsTest, NullsAndNaNs) {
  // data has nulls: comparisons cannot hold for every row.
  EXPECT_FALSE(All(LessThan("data", Literal::String("zzz"))));
  EXPECT_TRUE(All(NotEqual("data", Literal::String("zzz"))));  // nulls are != too
  EXPECT_TRUE(All(IsNull("d")));
  EXPECT_TRUE(All(NotEqual("d", Literal::Double(1))));
  EXPECT_TRUE(All(NotNan("d")));  // all null, nan count 0
  EXPECT_FALSE(All(IsNull("data")));
  EXPECT_TRUE(All(NotNull("id")));  // required: folds to true when binding
  EXPECT_TRUE(All(NotNull("f")));
  EXPECT_FALSE(All(NotNull("data")));
  // f has NaNs, which are not < 3.
  EXPECT_FALSE(All(LessThan("f", Literal::Float(3))));
  EXPECT_FALSE(All(NotNan("f")));
  DataFileMetrics no_nan = File();
  no_nan.nan_value_counts[3] = 0;
  EXPECT_TRUE(All(LessThan("f", Literal::Float(3)), no_nan));
  no_nan.nan_value_counts.erase(3);  // unknown: might hold NaN
  EXPECT_FALSE(All(LessThan("f", Literal::Float(3)), no_nan));
  DataFileMetrics all_nan = File();
  all_nan.nan_value_counts[3] = 50;
  EXPECT_TRUE(All(IsNan("f"), all_nan));
  EXPECT_TRUE(All(NotEqual("f", Literal::Float(1)), all_nan));
}

TEST(StrictMetricsTest, MissingMetricsAndPrefixes) {
  EXPECT_FALSE(All(LessThan("i", Literal::Int(0))));
  EXPECT_FALSE(All(IsNull("i")));
  EXPECT_FALSE(All(NotNull("i")));
  DataFileMetrics empty;
  empty.record_count = 0;
  EXPECT_TRUE(All(Equal("id", L(1)), empty));
  DataFileMetrics s = File();
  s.null_value_counts[2] = 0;
  EXPECT_TRUE(All(StartsWith("data", "ab"), s));
  EXPECT_FALSE(All(StartsWith("data", "abc"), s));
  EXPECT_FALSE(All(StartsWith("data", "ab")));  // nulls do not start with anything
  EXPECT_TRUE(All(NotStartsWith("data", "b")));
  EXPECT_TRUE(All(NotStartsWith("data", "aa")));
  EXPECT_FALSE(All(NotStartsWith("data", "abd")));
}

TEST(MetricsEvaluatorTest, BadBoundsAreErrors) {
  DataFileMetrics bad = File();
  bad.lower_bounds[1] = "xyz";
  auto r = InclusiveMetricsEvaluator(B(LessThan("id", L(5)))).MightMatch(bad);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("field 1"), std::string::npos);
  EXPECT_FALSE(StrictMetricsEvaluator(B(LessThan("id", L(5)))).AllMatch(bad).has_value());
}

}  // namespace
}  // namespace floe::expr
