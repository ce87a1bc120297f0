#include "floe/spec/transform.h"

#include <gtest/gtest.h>

#include "floe/spec/literal.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

using namespace types;

// A literal from its JSON single-value form, e.g. Value(Timestamp(), "2017-11-16T22:31:08").
Literal Value(const TypePtr& type, const Json& json) {
  auto literal = Literal::FromJson(type, json);
  EXPECT_TRUE(literal.has_value()) << literal.error().ToString();
  return literal.has_value() ? *literal : Literal::Null(type);
}

Literal Apply(const Transform& transform, const Literal& value) {
  auto result = transform.Apply(value);
  EXPECT_TRUE(result.has_value()) << transform.ToString() << ": " << result.error().ToString();
  return result.has_value() ? *result : Literal::Null(value.type());
}

Transform Parse(std::string_view text) {
  auto transform = Transform::Parse(text);
  EXPECT_TRUE(transform.has_value()) << transform.error().ToString();
  return transform.has_value() ? *transform : Transform::Void();
}

TEST(TransformTest, ParsesAndPrintsTheSpecStrings) {
  for (std::string_view text :
       {"identity", "bucket[16]", "truncate[20]", "year", "month", "day", "hour", "void"}) {
    EXPECT_EQ(Parse(text).ToString(), text);
  }
  EXPECT_EQ(Parse("bucket[16]"), Transform::Bucket(16));
  EXPECT_EQ(Parse("truncate[20]").param(), 20);
  EXPECT_EQ(Parse("Identity"), Transform::Identity());
  EXPECT_EQ(Parse("BUCKET[4]"), Transform::Bucket(4));
  EXPECT_TRUE(Parse("hour").is_time());
  EXPECT_FALSE(Parse("bucket[2]").is_time());
}

TEST(TransformTest, KeepsUnknownTransformsByName) {
  Transform zorder = Parse("zorder");
  EXPECT_TRUE(zorder.is_unknown());
  EXPECT_EQ(zorder.ToString(), "zorder");
  EXPECT_TRUE(zorder.CanTransform(*String()));
  EXPECT_TRUE(Parse("bucket[x]").is_unknown());
  EXPECT_TRUE(Parse("bucket[-1]").is_unknown());
  EXPECT_TRUE(Parse("truncate[]").is_unknown());
  EXPECT_TRUE(Parse("frobnicate[3]").is_unknown());
  EXPECT_FALSE(zorder.Apply(Literal::Int(1)).has_value());
  EXPECT_EQ(zorder, Transform::Unknown("zorder"));
  EXPECT_NE(zorder, Transform::Unknown("other"));
}

TEST(TransformTest, RejectsBadParameters) {
  for (std::string_view text : {"bucket[0]", "truncate[0]", "bucket[4294967296]"}) {
    auto parsed = Transform::Parse(text);
    EXPECT_FALSE(parsed.has_value()) << text;
  }
  EXPECT_FALSE(Transform::Bucket(0).Apply(Literal::Int(1)).has_value());
}

// The spec's transform table: source types each transform accepts, and its result type.
TEST(TransformTest, SourceAndResultTypes) {
  const std::vector<TypePtr> all = {
      Boolean(), Int(),  Long(),      Float(),       Double(),      Decimal(9, 2),
      Date(),    Time(), Timestamp(), TimestampTz(), TimestampNs(), TimestampTzNs(),
      String(),  Uuid(), Fixed(4),    Binary(),      Variant(),     PrimitiveType::Geometry()};
  auto accepted = [&](const Transform& t) {
    std::vector<std::string> names;
    for (const auto& type : all) {
      if (t.CanTransform(*type)) names.push_back(type->ToString());
    }
    return names;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(
      accepted(Transform::Identity()),
      (V{"boolean", "int", "long", "float", "double", "decimal(9, 2)", "date", "time", "timestamp",
         "timestamptz", "timestamp_ns", "timestamptz_ns", "string", "uuid", "fixed[4]", "binary"}));
  EXPECT_EQ(accepted(Transform::Bucket(4)),
            (V{"int", "long", "decimal(9, 2)", "date", "time", "timestamp", "timestamptz",
               "timestamp_ns", "timestamptz_ns", "string", "uuid", "fixed[4]", "binary"}));
  EXPECT_EQ(accepted(Transform::Truncate(4)),
            (V{"int", "long", "decimal(9, 2)", "string", "binary"}));
  const V dates = {"date", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns"};
  EXPECT_EQ(accepted(Transform::Year()), dates);
  EXPECT_EQ(accepted(Transform::Month()), dates);
  EXPECT_EQ(accepted(Transform::Day()), dates);
  EXPECT_EQ(accepted(Transform::Hour()),
            (V{"timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns"}));
  EXPECT_EQ(accepted(Transform::Void()).size(), all.size());

  auto result = [](const Transform& t, const TypePtr& source) {
    auto type = t.ResultType(source);
    return type.has_value() ? (*type)->ToString() : "error";
  };
  EXPECT_EQ(result(Transform::Identity(), Decimal(9, 2)), "decimal(9, 2)");
  EXPECT_EQ(result(Transform::Bucket(4), String()), "int");
  EXPECT_EQ(result(Transform::Truncate(4), String()), "string");
  EXPECT_EQ(result(Transform::Year(), Timestamp()), "int");
  EXPECT_EQ(result(Transform::Month(), Date()), "int");
  EXPECT_EQ(result(Transform::Day(), TimestampTzNs()), "date");
  EXPECT_EQ(result(Transform::Hour(), Timestamp()), "int");
  EXPECT_EQ(result(Transform::Void(), Long()), "long");
  EXPECT_EQ(result(Transform::Hour(), Date()), "error");
  EXPECT_EQ(result(Transform::Bucket(4), Double()), "error");
}

// Bucket values follow from Appendix B's hashes: (hash & Integer.MAX_VALUE) % N.
TEST(TransformTest, BucketOfEveryHashedType) {
  auto bucket = [](int32_t hash, int32_t n) { return (hash & 0x7fffffff) % n; };
  const Transform b16 = Transform::Bucket(16);
  const Transform b1000 = Transform::Bucket(1000);
  EXPECT_EQ(Apply(b16, Literal::Int(34)), Literal::Int(bucket(2017239379, 16)));
  EXPECT_EQ(Apply(b1000, Literal::Long(34)), Literal::Int(bucket(2017239379, 1000)));
  EXPECT_EQ(Apply(b1000, Value(Decimal(9, 2), "14.20")), Literal::Int(bucket(-500754589, 1000)));
  EXPECT_EQ(Apply(b1000, Value(Date(), "2017-11-16")), Literal::Int(bucket(-653330422, 1000)));
  EXPECT_EQ(Apply(b1000, Value(Time(), "22:31:08")), Literal::Int(bucket(-662762989, 1000)));
  EXPECT_EQ(Apply(b1000, Value(Timestamp(), "2017-11-16T22:31:08")),
            Literal::Int(bucket(-2047944441, 1000)));
  EXPECT_EQ(Apply(b1000, Value(Timestamp(), "2017-11-16T22:31:08.000001")),
            Literal::Int(bucket(-1207196810, 1000)));
  EXPECT_EQ(Apply(b1000, Value(TimestampTz(), "2017-11-16T14:31:08-08:00")),
            Literal::Int(bucket(-2047944441, 1000)));
  EXPECT_EQ(Apply(b1000, Value(TimestampTz(), "2017-11-16T14:31:08.000001-08:00")),
            Literal::Int(bucket(-1207196810, 1000)));
  EXPECT_EQ(Apply(b1000, Value(TimestampNs(), "2017-11-16T22:31:08.000001001")),
            Literal::Int(bucket(-1207196810, 1000)));
  EXPECT_EQ(Apply(b1000, Value(TimestampTzNs(), "2017-11-16T14:31:08.000001001-08:00")),
            Literal::Int(bucket(-1207196810, 1000)));
  EXPECT_EQ(Apply(b1000, Literal::String("iceberg")), Literal::Int(bucket(1210000089, 1000)));
  EXPECT_EQ(Apply(b1000, Value(Uuid(), "f79c3e09-677c-4bbd-a479-3f349cb785e7")),
            Literal::Int(bucket(1488055340, 1000)));
  EXPECT_EQ(Apply(b1000, Literal::Fixed(std::string("\x00\x01\x02\x03", 4))),
            Literal::Int(bucket(-188683207, 1000)));
  EXPECT_EQ(Apply(b1000, Literal::Binary(std::string("\x00\x01\x02\x03", 4))),
            Literal::Int(bucket(-188683207, 1000)));
  EXPECT_FALSE(b16.Apply(Literal::Double(1.0)).has_value());
}

TEST(TransformTest, NullInNullOut) {
  for (const Transform& t :
       {Transform::Identity(), Transform::Bucket(4), Transform::Year(), Transform::Month(),
        Transform::Day(), Transform::Hour(), Transform::Void()}) {
    EXPECT_TRUE(Apply(t, Literal::Null(Timestamp())).is_null()) << t.ToString();
  }
  EXPECT_TRUE(Apply(Transform::Truncate(3), Literal::Null(String())).is_null());
  EXPECT_EQ(Apply(Transform::Day(), Literal::Null(Timestamp())).type_id(), TypeId::kDate);
  EXPECT_EQ(Apply(Transform::Bucket(4), Literal::Null(String())).type_id(), TypeId::kInt);
  EXPECT_TRUE(Apply(Transform::Void(), Literal::String("x")).is_null());
}

// The spec's "Truncate Transform Details" examples.
TEST(TransformTest, TruncateExamplesFromTheSpec) {
  const Transform w10 = Transform::Truncate(10);
  EXPECT_EQ(Apply(w10, Literal::Int(1)), Literal::Int(0));
  EXPECT_EQ(Apply(w10, Literal::Int(-1)), Literal::Int(-10));
  EXPECT_EQ(Apply(w10, Literal::Long(1)), Literal::Long(0));
  EXPECT_EQ(Apply(w10, Literal::Long(-1)), Literal::Long(-10));
  EXPECT_EQ(Apply(Transform::Truncate(50), Value(Decimal(9, 2), "10.65")),
            Value(Decimal(9, 2), "10.50"));
  EXPECT_EQ(Apply(Transform::Truncate(3), Literal::String("iceberg")), Literal::String("ice"));
  EXPECT_EQ(Apply(Transform::Truncate(3), Literal::Binary("\x01\x02\x03\x04\x05")),
            Literal::Binary("\x01\x02\x03"));
}

TEST(TransformTest, TruncateEdges) {
  EXPECT_EQ(Apply(Transform::Truncate(10), Literal::Int(-10)), Literal::Int(-10));
  EXPECT_EQ(Apply(Transform::Truncate(10), Literal::Int(-11)), Literal::Int(-20));
  EXPECT_EQ(Apply(Transform::Truncate(10), Literal::Int(19)), Literal::Int(10));
  EXPECT_EQ(Apply(Transform::Truncate(50), Value(Decimal(9, 2), "-0.05")),
            Value(Decimal(9, 2), "-0.50"));
  // Strings are cut by code points, never inside one: "ä" is 2 bytes, "日" 3, "😀" 4.
  EXPECT_EQ(Apply(Transform::Truncate(2), Literal::String("ä日本")), Literal::String("ä日"));
  EXPECT_EQ(Apply(Transform::Truncate(1), Literal::String("😀x")), Literal::String("😀"));
  EXPECT_EQ(Apply(Transform::Truncate(5), Literal::String("ab")), Literal::String("ab"));
  EXPECT_EQ(Apply(Transform::Truncate(5), Literal::Binary("ab")), Literal::Binary("ab"));
  // Extreme values wrap as Java int arithmetic does, instead of being undefined.
  EXPECT_EQ(Apply(Transform::Truncate(10), Literal::Int(INT32_MIN)),
            Literal::Int(static_cast<int32_t>(int64_t{INT32_MIN} - 2 + (int64_t{1} << 32))));
}

struct TimeCase {
  const char* timestamp;
  int32_t year, month, day, hour;
};

TEST(TransformTest, TimeTransformsRoundTowardNegativeInfinity) {
  const TimeCase cases[] = {
      {"1970-01-01T00:00:00", 0, 0, 0, 0},
      {"2017-11-16T22:31:08", 47, 47 * 12 + 10, 17486, 17486 * 24 + 22},
      {"1969-12-31T23:59:59.999999", -1, -1, -1, -1},
      {"1969-12-31T00:00:00", -1, -1, -1, -24},
      {"1969-01-01T00:00:00", -1, -12, -365, -365 * 24},
      {"1968-12-31T23:00:00", -2, -13, -366, -366 * 24 + 23},
      {"1900-03-01T12:00:00", -70, -70 * 12 + 2, -25508, -25508 * 24 + 12},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.timestamp);
    for (const TypePtr& type : {Timestamp(), TimestampNs()}) {
      const Literal ts = Value(type, c.timestamp);
      EXPECT_EQ(Apply(Transform::Year(), ts), Literal::Int(c.year));
      EXPECT_EQ(Apply(Transform::Month(), ts), Literal::Int(c.month));
      EXPECT_EQ(Apply(Transform::Day(), ts), Literal::Date(c.day));
      EXPECT_EQ(Apply(Transform::Hour(), ts), Literal::Int(c.hour));
    }
    const Literal tz = Value(TimestampTz(), std::string(c.timestamp) + "+00:00");
    EXPECT_EQ(Apply(Transform::Hour(), tz), Literal::Int(c.hour));
    const Literal date = Literal::Date(c.day);
    EXPECT_EQ(Apply(Transform::Year(), date), Literal::Int(c.year));
    EXPECT_EQ(Apply(Transform::Month(), date), Literal::Int(c.month));
    EXPECT_EQ(Apply(Transform::Day(), date), Literal::Date(c.day));
  }
  // One nanosecond before the epoch is in the previous hour.
  EXPECT_EQ(Apply(Transform::Hour(), Literal::TimestampNs(-1)), Literal::Int(-1));
}

TEST(TransformTest, HumanStringsOfTransformedValues) {
  const Literal ts = Value(Timestamp(), "2026-01-01T10:15:00");
  auto human = [&](const Transform& t, const Literal& v) { return t.ToHumanString(Apply(t, v)); };
  EXPECT_EQ(human(Transform::Year(), ts), "2026");
  EXPECT_EQ(human(Transform::Month(), ts), "2026-01");
  EXPECT_EQ(human(Transform::Day(), ts), "2026-01-01");
  EXPECT_EQ(human(Transform::Hour(), ts), "2026-01-01-10");
  EXPECT_EQ(human(Transform::Bucket(16), Literal::Int(34)), "3");  // 2017239379 % 16
  EXPECT_EQ(human(Transform::Truncate(3), Literal::String("iceberg")), "ice");
  EXPECT_EQ(human(Transform::Identity(), Literal::String("a/b")), "a/b");
  EXPECT_EQ(human(Transform::Void(), Literal::String("x")), "null");
  // Before the epoch; the hour partition Spark wrote for 1969-01-01 00:xx in the shared test data
  // is "ts_hour=1969-01-01-00".
  const Literal old = Value(Timestamp(), "1969-01-01T00:30:00");
  EXPECT_EQ(human(Transform::Hour(), old), "1969-01-01-00");
  EXPECT_EQ(human(Transform::Day(), old), "1969-01-01");
  EXPECT_EQ(human(Transform::Month(), Value(Timestamp(), "1969-12-31T23:59:59")), "1969-12");
  EXPECT_EQ(human(Transform::Year(), Value(Date(), "1969-12-31")), "1969");
  // Older writers stored day partition values as int.
  EXPECT_EQ(Transform::Day().ToHumanString(Literal::Int(17486)), "2017-11-16");
  EXPECT_EQ(Transform::Hour().ToHumanString(Literal::Null(Int())), "null");
}

TEST(TransformTest, OrderProperties) {
  EXPECT_TRUE(Transform::Identity().PreservesOrder());
  EXPECT_TRUE(Transform::Truncate(4).PreservesOrder());
  EXPECT_TRUE(Transform::Day().PreservesOrder());
  EXPECT_FALSE(Transform::Bucket(4).PreservesOrder());
  EXPECT_FALSE(Transform::Void().PreservesOrder());
  EXPECT_TRUE(Transform::Hour().SatisfiesOrderOf(Transform::Day()));
  EXPECT_TRUE(Transform::Day().SatisfiesOrderOf(Transform::Year()));
  EXPECT_FALSE(Transform::Day().SatisfiesOrderOf(Transform::Hour()));
  EXPECT_TRUE(Transform::Identity().SatisfiesOrderOf(Transform::Month()));
  EXPECT_FALSE(Transform::Identity().SatisfiesOrderOf(Transform::Bucket(2)));
  EXPECT_TRUE(Transform::Bucket(2).SatisfiesOrderOf(Transform::Bucket(2)));
  EXPECT_FALSE(Transform::Bucket(2).SatisfiesOrderOf(Transform::Bucket(4)));
}

}  // namespace
}  // namespace floe
