// Expressions over sample rows, compared with DuckDB running the same expressions over the same
// rows (where DuckDB's semantics are Flink's), plus Flink's documented behaviour where they
// differ, push-down, filters and constant evaluation.

#include "floe/sql/scalar/scalar_expr.h"

#include <gtest/gtest.h>

#include <random>

#include "floe/sql/scalar/peer_check_test_support.h"
#include "floe/sql/syntax/parser.h"

namespace floe::sql {
namespace {

using ::floe::DataType;
using scalar::testing::EvalSample;
using scalar::testing::ExpectSameAsDuckDb;
using scalar::testing::SameCell;
using scalar::testing::SampleBatch;

TEST(ScalarExprTest, ColumnsLiteralsArithmeticComparisonsLikeDuckDb) {
  ExpectSameAsDuckDb({
      {"i", ""},
      {"i + j", ""},
      {"i - j * 2", ""},
      {"-i", ""},
      {"i % j", ""},
      // Flink: INT / INT is INT, truncating (DuckDB spells that //).
      {"i / j", "i // j"},
      {"x * 2", ""},
      {"x / 4", ""},
      {"i + x", ""},
      {"dec + 1", ""},
      {"dec * dec", ""},
      {"dec - x", ""},
      {"i < j", ""},
      {"i = 1", ""},
      {"i <> j", ""},
      {"x >= 0", ""},
      {"dec > 0.5", ""},
      {"s = 'abc'", ""},
      {"s < 'b'", ""},
      {"dt < DATE '2000-01-01'", ""},
      {"dt = '2024-02-29'", ""},
      {"ts > TIMESTAMP '2000-01-01 00:00:00'", ""},
      {"dt < ts", ""},
      {"b", ""},
      {"NOT b", ""},
      {"b AND i > 0", ""},
      {"b OR i > 0", ""},
      {"i IS NULL", ""},
      {"s IS NOT NULL", ""},
      {"1 + 2 * 3", ""},
      {"7.5 / 2", "7.5 / 2"},
      {"1.0 / 3", ""},
      {"TRUE AND NULL", ""},
      {"FALSE AND NULL", ""},
      {"TRUE OR NULL", ""},
      {"NULL + 1", ""},
      {"i IS DISTINCT FROM j", ""},
      {"i IS NOT DISTINCT FROM j", ""},
      {"s IS DISTINCT FROM 'abc'", ""},
      {"dec IS NOT DISTINCT FROM NULL", ""},
      {"b IS TRUE", ""},
      {"b IS NOT TRUE", ""},
      {"b IS FALSE", ""},
      {"b IS NOT FALSE", ""},
      {"b IS UNKNOWN", ""},
      {"b IS NOT UNKNOWN", ""},
      {"i > 0 IS TRUE", "(i > 0) IS TRUE"},
  });
  EXPECT_EQ(EvalSample("i IS TRUE")[0],
            "BIND ERROR: line 1, column 1: IS TRUE needs a BOOLEAN operand, not INT");
  EXPECT_EQ(EvalSample("i IS DISTINCT FROM dt")[0],
            "BIND ERROR: line 1, column 1: cannot compare with 'IS DISTINCT FROM' INT and DATE");
  EXPECT_EQ(EvalSample("NULL IS NOT DISTINCT FROM NULL")[0], "true");
}

TEST(ScalarExprTest, FlinkTypesOfResults) {
  // Flink's documented type rules (Table API "Arithmetic Functions" / LogicalTypeMerging):
  // INT op INT is INT, decimal division scale is max(6, s1 + p2 + 1).
  RecordBatch batch = SampleBatch();
  Scope scope = Scope::ForSchema(*batch.schema());
  auto type_of = [&](std::string_view sql) {
    auto parsed = ParseExpression(sql);
    EXPECT_TRUE(parsed);
    auto bound = BindScalar(**parsed, scope);
    EXPECT_TRUE(bound) << bound.error().ToString();
    return (*bound)->type()->ToString();
  };
  EXPECT_EQ(type_of("i / j"), "int32");
  EXPECT_EQ(type_of("i + 3000000000"), "int64");
  EXPECT_EQ(type_of("i + x"), "double");
  EXPECT_EQ(type_of("dec + 1"), "decimal128(13, 2)");
  EXPECT_EQ(type_of("dec * dec"), "decimal128(20, 4)");
  EXPECT_EQ(type_of("dec / dec"), "decimal128(23, 13)");
  EXPECT_EQ(type_of("1.0 / 3"), "decimal128(13, 12)");
}

TEST(ScalarExprTest, IntegerDivisionByZeroIsAnError) {
  // Flink raises java.lang.ArithmeticException for integer division by zero; DOUBLE gives
  // Infinity as Java does.
  EXPECT_EQ(EvalSample("i / (j - j)")[0],
            "EVAL ERROR: line 1, column 1: `i` / (`j` - `j`): division by zero");
  EXPECT_EQ(EvalSample("x / 0e0")[0], "inf");
  // Rows the left side of AND decides are not evaluated on the right.
  ExpectSameAsDuckDb({{"j <> 0 AND i / j > 0", "j <> 0 AND i // j > 0"}});
}

TEST(ScalarExprTest, BindErrorsNameThePosition) {
  EXPECT_EQ(EvalSample("nope + 1")[0],
            "BIND ERROR: line 1, column 1: column 'nope' not found in any table");
  EXPECT_EQ(EvalSample("i + FOO(1)")[0], "BIND ERROR: line 1, column 5: no function named 'FOO'");
  EXPECT_EQ(EvalSample("s + dt")[0],
            "BIND ERROR: line 1, column 1: cannot apply '+' to STRING and DATE");
  EXPECT_EQ(EvalSample("SUM(i)")[0],
            "BIND ERROR: line 1, column 1: aggregate function SUM is not allowed here");
  EXPECT_EQ(EvalSample("i AND b")[0],
            "BIND ERROR: line 1, column 1: AND needs BOOLEAN operands, not INT");
}

TEST(ScalarExprTest, ScopeFindsExactThenCaseInsensitive) {
  Scope scope({{"t", "a", DataType::Int32()},
               {"u", "a", DataType::Int32()},
               {"t", "Bc", DataType::Int32()}});
  EXPECT_EQ(*scope.Find({"t", "a"}, {}), 0);
  EXPECT_EQ(*scope.Find({"U", "A"}, {}), 1);
  EXPECT_EQ(*scope.Find({"bc"}, {}), 2);
  EXPECT_EQ(scope.Find({"a"}, {2, 3}).error().message(),
            "line 2, column 3: column 'a' is ambiguous");
}

// Three-valued logic, checked against its truth tables on random inputs: AND is the minimum and
// OR the maximum of FALSE < NULL < TRUE, NOT swaps TRUE and FALSE and keeps NULL.
TEST(ScalarExprTest, ThreeValuedLogicProperties) {
  std::mt19937 random(7);
  const int64_t n = 1000;
  std::vector<Value> a, b;
  std::vector<int> ra, rb;  // 0 false, 1 null, 2 true
  for (int64_t i = 0; i < n; ++i) {
    ra.push_back(static_cast<int>(random() % 3));
    rb.push_back(static_cast<int>(random() % 3));
    a.push_back(ra.back() == 1 ? Value() : Value(ra.back() == 2));
    b.push_back(rb.back() == 1 ? Value() : Value(rb.back() == 2));
  }
  auto schema = std::make_shared<BatchSchema>(
      std::vector<Field>{{"a", DataType::Bool()}, {"b", DataType::Bool()}});
  auto batch =
      RecordBatch::Make(schema, {*MakeArray(DataType::Bool(), a), *MakeArray(DataType::Bool(), b)});
  ASSERT_TRUE(batch);
  // Slices exercise bitmaps that do not start on a byte.
  for (int64_t offset : {0, 3}) {
    RecordBatch input = batch->Slice(offset, n - offset);
    Scope scope = Scope::ForSchema(*schema);
    auto eval = [&](std::string_view sql) {
      auto bound = BindScalar(**ParseExpression(sql), scope);
      EXPECT_TRUE(bound);
      return *(*bound)->Evaluate(input);
    };
    Array and_ = eval("a AND b"), or_ = eval("a OR b"), not_ = eval("NOT a");
    Array nand = eval("NOT (a AND b)"), demorgan = eval("NOT a OR NOT b");
    auto code = [](const Array& array, int64_t i) {
      return array.IsNull(i) ? 1 : array.GetBool(i) ? 2 : 0;
    };
    for (int64_t i = 0; i < input.num_rows(); ++i) {
      const int x = ra[i + offset], y = rb[i + offset];
      EXPECT_EQ(code(and_, i), std::min(x, y));
      EXPECT_EQ(code(or_, i), std::max(x, y));
      EXPECT_EQ(code(not_, i), 2 - x);
      EXPECT_EQ(code(nand, i), code(demorgan, i));
    }
  }
}

TEST(ScalarExprTest, FilterKeepsTrueRowsOnly) {
  RecordBatch batch = SampleBatch();
  auto bound = BindScalar(**ParseExpression("i > 0 OR b"), Scope::ForSchema(*batch.schema()));
  ASSERT_TRUE(bound);
  auto filtered = FilterBatch(batch, **bound);
  ASSERT_TRUE(filtered) << filtered.error().ToString();
  // Rows: i 1 (true), -7/b false (false), NULL/b NULL (null), 2147483000 (true), 0/false, 12.
  ASSERT_EQ(filtered->num_rows(), 3);
  EXPECT_EQ(GetValue(filtered->column(0), 0), Value(1));
  EXPECT_EQ(GetValue(filtered->column(0), 1), Value(2147483000));
  EXPECT_EQ(GetValue(filtered->column(0), 2), Value(12));
}

TEST(ScalarExprTest, PushDownToIceberg) {
  Scope scope({{"t", "id", DataType::Int32(), true, 1},
               {"t", "name", DataType::String(), true, 2},
               {"t", "day", DataType::Date32(), true, 3},
               {"t", "computed", DataType::Int64(), true, std::nullopt}});
  auto pushed = [&](std::string_view sql) {
    auto bound = BindScalar(**ParseExpression(sql), scope);
    EXPECT_TRUE(bound) << bound.error().ToString();
    return ToIcebergFilter(**bound, scope)->ToString();
  };
  EXPECT_EQ(pushed("id = 5"), "id = 5");
  EXPECT_EQ(pushed("5 < id"), "id > 5");
  EXPECT_EQ(pushed("id >= 3000000000"), "id >= 3000000000");
  // SQL's <> and NOT are false for a null column, Iceberg's != is true: the column must be set.
  EXPECT_EQ(pushed("name <> 'a' AND id IS NOT NULL"),
            "((name != 'a' and name is not null) and id is not null)");
  EXPECT_EQ(pushed("id < 1 OR name IS NULL"), "(id < 1 or name is null)");
  EXPECT_EQ(pushed("NOT (id <= 2)"), "id > 2");
  EXPECT_EQ(pushed("day = '2024-01-02'"), "day = '2024-01-02'");
  // The part on a column without a field id stays in the residual filter.
  EXPECT_EQ(pushed("id > 1 AND computed > 2"), "id > 1");
  EXPECT_EQ(pushed("id > 1 OR computed > 2"), "true");
  EXPECT_EQ(pushed("id + 1 > 2"), "true");
}

TEST(ScalarExprTest, EvaluateConstantAndAggregates) {
  EXPECT_EQ(*EvaluateConstant(**ParseExpression("1 + 2")), Value(3));
  EXPECT_EQ(*EvaluateConstant(**ParseExpression("'a'")), Value("a"));
  EXPECT_EQ(*EvaluateConstant(**ParseExpression("-1.50")), Value(DecimalValue{-150, 3, 2}));
  EXPECT_TRUE(EvaluateConstant(**ParseExpression("NULL"))->is_null());
  EXPECT_EQ(*EvaluateConstant(**ParseExpression("DATE '1970-01-02'")), Value(DateValue{1}));
  EXPECT_FALSE(EvaluateConstant(**ParseExpression("x + 1")));
  EXPECT_TRUE(IsAggregateFunction("count"));
  EXPECT_FALSE(IsAggregateFunction("UPPER"));
  EXPECT_TRUE(ContainsAggregate(**ParseExpression("1 + max(x)")));
  EXPECT_FALSE(ContainsAggregate(**ParseExpression("1 + abs(x)")));
}

TEST(ScalarExprTest, ToBatchTypeOfSqlTypes) {
  auto batch_type = [](std::string_view sql) {
    auto type = ToBatchType(*ParseDataType(sql));
    return type ? (*type)->ToString() : type.error().message();
  };
  EXPECT_EQ(batch_type("VARCHAR(10)"), "string");
  EXPECT_EQ(batch_type("DECIMAL"), "decimal128(10, 0)");
  EXPECT_EQ(batch_type("DECIMAL(38, 10)"), "decimal128(38, 10)");
  EXPECT_EQ(batch_type("TIMESTAMP(3)"), "timestamp[us]");
  EXPECT_EQ(batch_type("TIMESTAMP(9)"), "timestamp[ns]");
  EXPECT_EQ(batch_type("TIMESTAMP_LTZ(6)"), "timestamp[us, tz=UTC]");
  EXPECT_EQ(batch_type("DECIMAL(40, 2)"),
            "DECIMAL(40, 2): precision must be 1..38 and scale 0..precision");
}

}  // namespace
}  // namespace floe::sql
