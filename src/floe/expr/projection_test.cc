#include "floe/expr/projection.h"

#include <gtest/gtest.h>

#include "floe/expr/evaluator.h"
#include "floe/expr/test_schema.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::expr {
namespace {

constexpr int64_t kDayMicros = 86400LL * 1000000;

PartitionField Field(int32_t source, std::string name, Transform t) {
  return PartitionField{
      .source_ids = {source}, .field_id = 1000, .name = std::move(name), .transform = t};
}

ExprPtr BoundOrDie(const ExprPtr& e) {
  auto bound = Bind(e, *testing::TestSchema());
  EXPECT_TRUE(bound.has_value()) << bound.error().ToString();
  return bound ? *bound : False();
}

// The projection printed; "none" when the transform cannot express it.
std::string Proj(const ExprPtr& e, const PartitionField& f, bool strict) {
  auto bound = BoundOrDie(e);
  auto p = ProjectPredicate(*bound, f, strict);
  EXPECT_TRUE(p.has_value()) << p.error().ToString();
  if (!p) return "error";
  return *p == nullptr ? "none" : (*p)->ToString();
}

TEST(ProjectionTest, Identity) {
  auto f = Field(1, "id_p", Transform::Identity());
  EXPECT_EQ(Proj(LessThan("id", Literal::Long(5)), f, false), "id_p < 5");
  EXPECT_EQ(Proj(NotIn("id", {Literal::Long(5), Literal::Long(6)}), f, true), "id_p not in (5, 6)");
  EXPECT_EQ(Proj(IsNan("d"), Field(4, "d_p", Transform::Identity()), true), "d_p is nan");
}

TEST(ProjectionTest, Bucket) {
  // Spec Appendix B: hash(34) = 2017239379, and 2017239379 % 16 = 3.
  auto f = Field(1, "id_bucket", Transform::Bucket(16));
  EXPECT_EQ(Proj(Equal("id", Literal::Long(34)), f, false), "id_bucket = 3");
  EXPECT_EQ(Proj(In("id", {Literal::Long(34), Literal::Long(34)}), f, false), "id_bucket = 3");
  EXPECT_EQ(Proj(Equal("id", Literal::Long(34)), f, true), "none");
  EXPECT_EQ(Proj(NotEqual("id", Literal::Long(34)), f, true), "id_bucket != 3");
  EXPECT_EQ(Proj(NotEqual("id", Literal::Long(34)), f, false), "none");
  EXPECT_EQ(Proj(LessThan("id", Literal::Long(34)), f, false), "none");
  EXPECT_EQ(Proj(LessThan("id", Literal::Long(34)), f, true), "none");
  // hash("iceberg") = 1210000089, % 16 = 9.
  EXPECT_EQ(
      Proj(Equal("data", Literal::String("iceberg")), Field(2, "b", Transform::Bucket(16)), false),
      "b = 9");
  EXPECT_EQ(Proj(IsNull("data"), Field(2, "b", Transform::Bucket(16)), true), "b is null");
}

TEST(ProjectionTest, TruncateIntegers) {
  auto f = Field(7, "i_trunc", Transform::Truncate(10));
  EXPECT_EQ(Proj(LessThan("i", Literal::Int(15)), f, false), "i_trunc <= 10");
  EXPECT_EQ(Proj(LessThan("i", Literal::Int(10)), f, false), "i_trunc <= 0");
  EXPECT_EQ(Proj(LessThanOrEqual("i", Literal::Int(15)), f, false), "i_trunc <= 10");
  EXPECT_EQ(Proj(GreaterThan("i", Literal::Int(19)), f, false), "i_trunc >= 20");
  EXPECT_EQ(Proj(GreaterThanOrEqual("i", Literal::Int(19)), f, false), "i_trunc >= 10");
  EXPECT_EQ(Proj(Equal("i", Literal::Int(-1)), f, false), "i_trunc = -10");
  EXPECT_EQ(Proj(LessThan("i", Literal::Int(-5)), f, false), "i_trunc <= -10");
  EXPECT_EQ(Proj(LessThan("i", Literal::Int(15)), f, true), "i_trunc < 10");
  EXPECT_EQ(Proj(LessThanOrEqual("i", Literal::Int(19)), f, true), "i_trunc < 20");
  EXPECT_EQ(Proj(GreaterThanOrEqual("i", Literal::Int(10)), f, true), "i_trunc > 0");
  EXPECT_EQ(Proj(Equal("i", Literal::Int(10)), f, true), "none");
  EXPECT_EQ(Proj(NotEqual("i", Literal::Int(-1)), f, true), "i_trunc != -10");
  auto dec = Field(8, "dec_trunc", Transform::Truncate(10));
  EXPECT_EQ(Proj(LessThan("dec", Literal::Decimal(1005, 9, 2)), dec, false), "dec_trunc <= 10.00");
  EXPECT_EQ(Proj(GreaterThan("dec", Literal::Decimal(-5, 9, 2)), dec, false), "dec_trunc >= -0.10");
}

TEST(ProjectionTest, TruncateStrings) {
  auto f = Field(2, "t", Transform::Truncate(3));
  EXPECT_EQ(Proj(LessThan("data", Literal::String("abcd")), f, false), "t <= 'abc'");
  EXPECT_EQ(Proj(GreaterThan("data", Literal::String("abcd")), f, false), "t >= 'abc'");
  EXPECT_EQ(Proj(Equal("data", Literal::String("abcd")), f, false), "t = 'abc'");
  EXPECT_EQ(Proj(LessThanOrEqual("data", Literal::String("abcd")), f, true), "t < 'abc'");
  EXPECT_EQ(Proj(GreaterThan("data", Literal::String("ab")), f, true), "t > 'ab'");
  EXPECT_EQ(Proj(StartsWith("data", "ab"), f, false), "t starts_with 'ab'");
  EXPECT_EQ(Proj(StartsWith("data", "abcd"), f, false), "t = 'abc'");
  EXPECT_EQ(Proj(StartsWith("data", "abc"), f, true), "t starts_with 'abc'");
  EXPECT_EQ(Proj(StartsWith("data", "abcd"), f, true), "none");
  EXPECT_EQ(Proj(NotStartsWith("data", "ab"), f, false), "t not_starts_with 'ab'");
  EXPECT_EQ(Proj(NotStartsWith("data", "abc"), f, false), "t != 'abc'");
  EXPECT_EQ(Proj(NotStartsWith("data", "abcd"), f, false), "none");
  EXPECT_EQ(Proj(NotStartsWith("data", "abcd"), f, true), "t not_starts_with 'abc'");
  // Widths count code points: "é" is two bytes, one character.
  EXPECT_EQ(Proj(StartsWith("data", "\xC3\xA9\xC3\xA9"), f, false),
            "t starts_with '\xC3\xA9\xC3\xA9'");
}

TEST(ProjectionTest, TimeTransformsWidenBeforeTheEpoch) {
  auto day = Field(5, "ts_day", Transform::Day());
  auto ts = [](int64_t micros) { return Literal::Timestamp(micros); };
  EXPECT_EQ(Proj(LessThan("ts", ts(kDayMicros)), day, false), "ts_day <= '1970-01-01'");
  EXPECT_EQ(Proj(GreaterThan("ts", ts(kDayMicros - 1)), day, false), "ts_day >= '1970-01-02'");
  EXPECT_EQ(Proj(Equal("ts", ts(kDayMicros / 2)), day, false), "ts_day = '1970-01-01'");
  // Before 1970 old writers may have put the row one partition later.
  EXPECT_EQ(Proj(LessThan("ts", ts(-kDayMicros)), day, false), "ts_day <= '1969-12-31'");
  EXPECT_EQ(Proj(Equal("ts", ts(-kDayMicros / 2)), day, false),
            "ts_day in ('1969-12-31', '1970-01-01')");
  EXPECT_EQ(Proj(GreaterThanOrEqual("ts", ts(-kDayMicros / 2)), day, false),
            "ts_day >= '1969-12-31'");
  EXPECT_EQ(Proj(LessThan("ts", ts(-kDayMicros)), day, true), "ts_day < '1969-12-31'");
  EXPECT_EQ(Proj(GreaterThan("ts", ts(-kDayMicros - 1)), day, true), "ts_day > '1969-12-31'");
  EXPECT_EQ(Proj(GreaterThan("ts", ts(kDayMicros - 1)), day, true), "ts_day > '1970-01-01'");
  EXPECT_EQ(Proj(NotEqual("ts", ts(-1)), day, true), "ts_day not in ('1969-12-31', '1970-01-01')");
  EXPECT_EQ(Proj(Equal("ts", ts(-1)), day, true), "none");
  auto year = Field(6, "y", Transform::Year());
  EXPECT_EQ(Proj(LessThan("day", Literal::Date(0)), year, false), "y <= 0");
  EXPECT_EQ(Proj(GreaterThanOrEqual("day", Literal::String("2017-11-16")), year, false), "y >= 47");
  auto month = Field(5, "m", Transform::Month());
  EXPECT_EQ(Proj(GreaterThanOrEqual("ts", Literal::String("2017-11-16T22:31:08")), month, false),
            "m >= 574");
  auto hour = Field(5, "h", Transform::Hour());
  EXPECT_EQ(Proj(GreaterThan("ts", Literal::String("1970-01-01T01:00:00")), hour, false), "h >= 1");
  EXPECT_EQ(Proj(LessThan("ts", Literal::String("1970-01-01T01:00:00")), hour, true), "h < 1");
}

TEST(ProjectionTest, VoidAndUnknownProjectToNothing) {
  EXPECT_EQ(Proj(Equal("id", Literal::Long(1)), Field(1, "v", Transform::Void()), false), "none");
  EXPECT_EQ(Proj(Equal("id", Literal::Long(1)), Field(1, "v", Transform::Void()), true), "none");
  EXPECT_EQ(Proj(Equal("id", Literal::Long(1)), Field(1, "z", Transform::Unknown("zorder")), false),
            "none");
}

TEST(ProjectionTest, WholeFiltersThroughASpec) {
  auto schema = testing::TestSchema();
  auto spec = PartitionSpec::Make(
      *schema, 0,
      {PartitionField{
           .source_ids = {5}, .field_id = 1000, .name = "ts_day", .transform = Transform::Day()},
       PartitionField{.source_ids = {1},
                      .field_id = 1001,
                      .name = "id_bucket",
                      .transform = Transform::Bucket(16)}});
  ASSERT_TRUE(spec.has_value()) << spec.error().ToString();
  auto filter =
      BoundOrDie(And(Equal("id", Literal::Long(34)),
                     Or(LessThan("ts", Literal::Timestamp(kDayMicros)), StartsWith("data", "x"))));
  auto inclusive = ProjectInclusive(filter, *schema, **spec);
  ASSERT_TRUE(inclusive.has_value());
  EXPECT_EQ((*inclusive)->ToString(), "id_bucket = 3");
  auto strict = ProjectStrict(filter, *schema, **spec);
  ASSERT_TRUE(strict.has_value());
  EXPECT_EQ((*strict)->op(), Op::kFalse);
  auto strict2 =
      ProjectStrict(BoundOrDie(LessThan("ts", Literal::Timestamp(kDayMicros))), *schema, **spec);
  ASSERT_TRUE(strict2.has_value());
  EXPECT_EQ((*strict2)->ToString(), "ts_day < '1970-01-02'");
}

// The defining property, checked by brute force: an inclusive projection holds for the partition
// of every matching value, and a strict projection holds only for partitions whose values all
// match. Old writers' pre-1970 partitions (value's partition + 1) are included for time.
void CheckProperty(const ExprPtr& unbound, const PartitionField& f,
                   const std::vector<Literal>& values, bool old_time_writer) {
  auto pred = BoundOrDie(unbound);
  auto inc = ProjectPredicate(*pred, f, false);
  auto str = ProjectPredicate(*pred, f, true);
  ASSERT_TRUE(inc.has_value() && str.has_value());
  for (const auto& x : values) {
    auto part = f.transform.Apply(x);
    ASSERT_TRUE(part.has_value());
    std::vector<Literal> parts{*part};
    if (old_time_writer && part->int_value() < 0 && x.long_value() < 0) {
      parts.push_back(part->type_id() == TypeId::kDate ? Literal::Date(part->int_value() + 1)
                                                       : Literal::Int(part->int_value() + 1));
    }
    bool matches = TestValue(*pred, &x);
    for (const auto& p : parts) {
      auto at = [&](int32_t) -> const Literal* { return &p; };
      if (matches && *inc != nullptr) {
        EXPECT_TRUE(Evaluate(**inc, at)) << pred->ToString() << " x=" << x.ToString();
      }
      if (!matches && *str != nullptr) {
        EXPECT_FALSE(Evaluate(**str, at)) << pred->ToString() << " x=" << x.ToString();
      }
    }
  }
}

TEST(ProjectionTest, PropertyHoldsForEveryTransformAndOperator) {
  std::vector<Literal> ints, hours, strings;
  for (int v = -35; v <= 35; ++v) ints.push_back(Literal::Int(v));
  for (int64_t h = -50; h <= 50; ++h) hours.push_back(Literal::Timestamp(h * 3600000000LL - 1));
  for (int64_t h = -50; h <= 50; ++h) hours.push_back(Literal::Timestamp(h * 3600000000LL));
  for (const char* s : {"", "a", "ab", "abc", "abcd", "abd", "b", "aa", "abca", "ac", "abb"}) {
    strings.push_back(Literal::String(s));
  }
  std::vector<Op> ops{Op::kLt, Op::kLtEq, Op::kGt, Op::kGtEq, Op::kEq, Op::kNotEq};
  for (Op op : ops) {
    for (int c : {-21, -20, -11, -10, -1, 0, 1, 9, 10, 11}) {
      CheckProperty(Predicate(op, "i", {Literal::Int(c)}), Field(7, "t", Transform::Truncate(10)),
                    ints, false);
      CheckProperty(Predicate(op, "i", {Literal::Int(c)}), Field(7, "b", Transform::Bucket(4)),
                    ints, false);
      CheckProperty(Predicate(op, "ts", {Literal::Timestamp(c * 3600000000LL * 5 / 2)}),
                    Field(5, "d", Transform::Day()), hours, true);
      CheckProperty(Predicate(op, "ts", {Literal::Timestamp(c * 3600000000LL * 5 / 2)}),
                    Field(5, "h", Transform::Hour()), hours, true);
    }
    for (const auto& s : strings) {
      CheckProperty(Predicate(op, "data", {s}), Field(2, "t", Transform::Truncate(2)), strings,
                    false);
    }
  }
  for (const auto& s : strings) {
    CheckProperty(StartsWith("data", s.bytes_value()), Field(2, "t", Transform::Truncate(2)),
                  strings, false);
    CheckProperty(NotStartsWith("data", s.bytes_value()), Field(2, "t", Transform::Truncate(2)),
                  strings, false);
  }
  CheckProperty(In("i", {Literal::Int(-3), Literal::Int(14)}),
                Field(7, "t", Transform::Truncate(10)), ints, false);
  CheckProperty(NotIn("i", {Literal::Int(-3), Literal::Int(14)}),
                Field(7, "t", Transform::Truncate(10)), ints, false);
}

}  // namespace
}  // namespace floe::expr
