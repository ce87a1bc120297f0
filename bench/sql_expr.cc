// Vectorised SQL expressions over one batch of 1M rows: a WHERE filter (comparisons, AND, the
// filtered copy), numeric arithmetic, decimal arithmetic and two string predicates. Rows per
// second per expression; binding happens once, outside the timed loop.

#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/syntax/parser.h"

namespace floe::sql {
namespace {

constexpr int64_t kRows = 1 << 20;

const RecordBatch& Input() {
  static const RecordBatch batch = [] {
    std::mt19937_64 random(42);
    Int64Builder id;
    Int32Builder qty;
    Float64Builder price;
    Decimal128Builder amount(::floe::DataType::Decimal128(12, 2));
    StringBuilder name(::floe::DataType::String());
    static constexpr const char* kNames[] = {"apple", "banana", "cherry", "abricot", "date"};
    for (int64_t i = 0; i < kRows; ++i) {
      id.Append(i);
      if (random() % 20 == 0) {
        qty.AppendNull();
      } else {
        qty.Append(static_cast<int32_t>(random() % 100));
      }
      price.Append(static_cast<double>(random() % 20000) / 100.0);
      amount.Append(static_cast<__int128>(random() % 1000000));
      name.Append(kNames[random() % 5]);
    }
    auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
        {"id", ::floe::DataType::Int64()},
        {"qty", ::floe::DataType::Int32()},
        {"price", ::floe::DataType::Float64()},
        {"amount", ::floe::DataType::Decimal128(12, 2)},
        {"name", ::floe::DataType::String()},
    });
    return *RecordBatch::Make(
        schema, {*id.Finish(), *qty.Finish(), *price.Finish(), *amount.Finish(), *name.Finish()});
  }();
  return batch;
}

ScalarExprPtr BindOrDie(std::string_view sql) {
  auto bound = BindScalar(**ParseExpression(sql), Scope::ForSchema(*Input().schema()));
  if (!bound) std::abort();
  return *bound;
}

void BM_Filter(benchmark::State& state, std::string_view sql) {
  ScalarExprPtr predicate = BindOrDie(sql);
  int64_t kept = 0;
  for (auto _ : state) {
    auto out = FilterBatch(Input(), *predicate);
    kept = out->num_rows();
    benchmark::DoNotOptimize(out);
  }
  state.counters["kept"] = static_cast<double>(kept);
  state.SetItemsProcessed(state.iterations() * kRows);
}

void BM_Evaluate(benchmark::State& state, std::string_view sql) {
  ScalarExprPtr expr = BindOrDie(sql);
  for (auto _ : state) benchmark::DoNotOptimize(expr->Evaluate(Input()));
  state.SetItemsProcessed(state.iterations() * kRows);
}

BENCHMARK_CAPTURE(BM_Filter, int_gt_and_double_lt, "qty > 50 AND price < 100.0");
BENCHMARK_CAPTURE(BM_Filter, bigint_between, "id BETWEEN 1000 AND 500000");
BENCHMARK_CAPTURE(BM_Filter, like_prefix, "name LIKE 'ab%'");
BENCHMARK_CAPTURE(BM_Evaluate, double_times_int_plus_one, "price * qty + 1");
BENCHMARK_CAPTURE(BM_Evaluate, bigint_arithmetic, "id * 3 - id / 7");
BENCHMARK_CAPTURE(BM_Evaluate, decimal_times_int, "amount * 3");
BENCHMARK_CAPTURE(BM_Evaluate, upper, "UPPER(name)");
BENCHMARK_CAPTURE(BM_Evaluate, case_when, "CASE WHEN qty > 50 THEN price ELSE 0 END");

}  // namespace
}  // namespace floe::sql
