// How fast decoders can fill builders: values appended per second, one column chunk (Finish
// included) per iteration. The *Growing cases start every chunk from an empty builder and let it
// double; the others Reserve() the chunk's row count first, as a decoder that knows its page or row
// group size does. Growing depends on glibc's heap state: when it trims freed memory back to the
// OS, every chunk page-faults its fresh pages (measured 7M..1G values/s for the same code); with
// MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ raised, growing runs near the reserved rate.

#include <benchmark/benchmark.h>
#include <fmt/core.h>

#include <random>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/take.h"

namespace floe {
namespace {

void BM_AppendInt64Growing(benchmark::State& state) {
  const int64_t n = state.range(0);
  Int64Builder builder;
  for (auto _ : state) {
    for (int64_t i = 0; i < n; ++i) builder.Append(i);
    benchmark::DoNotOptimize(builder.Finish());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AppendInt64Growing)->Arg(1 << 16);

void BM_AppendInt64(benchmark::State& state) {
  const int64_t n = state.range(0);
  Int64Builder builder;
  for (auto _ : state) {
    builder.Reserve(n);
    for (int64_t i = 0; i < n; ++i) builder.Append(i);
    benchmark::DoNotOptimize(builder.Finish());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AppendInt64)->Arg(1 << 16);

void BM_UnsafeAppendInt64(benchmark::State& state) {
  const int64_t n = state.range(0);
  Int64Builder builder;
  for (auto _ : state) {
    builder.Reserve(n);
    for (int64_t i = 0; i < n; ++i) builder.UnsafeAppend(i);
    benchmark::DoNotOptimize(builder.Finish());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_UnsafeAppendInt64)->Arg(1 << 16);

void BM_AppendInt64Bulk(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<int64_t> values(n);
  for (int64_t i = 0; i < n; ++i) values[i] = i * 7;
  Int64Builder builder;
  for (auto _ : state) {
    builder.AppendValues(values);
    benchmark::DoNotOptimize(builder.Finish());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AppendInt64Bulk)->Arg(1 << 16);

// One null in ten, so the validity bitmap is live.
void BM_AppendInt64WithNulls(benchmark::State& state) {
  const int64_t n = state.range(0);
  Int64Builder builder;
  for (auto _ : state) {
    builder.Reserve(n);
    for (int64_t i = 0; i < n; ++i) {
      if (i % 10 == 3) {
        builder.AppendNull();
      } else {
        builder.Append(i);
      }
    }
    benchmark::DoNotOptimize(builder.Finish());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AppendInt64WithNulls)->Arg(1 << 16);

void BM_AppendDouble(benchmark::State& state) {
  const int64_t n = state.range(0);
  Float64Builder builder;
  for (auto _ : state) {
    builder.Reserve(n);
    double x = 0.5;
    for (int64_t i = 0; i < n; ++i) {
      builder.Append(x);
      x += 1.25;
    }
    benchmark::DoNotOptimize(builder.Finish());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AppendDouble)->Arg(1 << 16);

// Strings of 7..18 bytes, like names and ids.
void AppendStrings(benchmark::State& state, bool reserve) {
  const int64_t n = state.range(0);
  std::vector<std::string> pool;
  for (int i = 0; i < 256; ++i) pool.push_back(fmt::format("value-{:0{}}", i, 1 + i % 12));
  int64_t chunk_bytes = 0;
  for (int64_t i = 0; i < n; ++i) chunk_bytes += static_cast<int64_t>(pool[i & 255].size());
  StringBuilder builder(DataType::String());
  for (auto _ : state) {
    if (reserve) {
      builder.Reserve(n);
      builder.ReserveData(chunk_bytes);
    }
    for (int64_t i = 0; i < n; ++i) builder.Append(pool[i & 255]);
    benchmark::DoNotOptimize(builder.Finish());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * chunk_bytes);
}

void BM_AppendString(benchmark::State& state) { AppendStrings(state, true); }
BENCHMARK(BM_AppendString)->Arg(1 << 16);

void BM_AppendStringGrowing(benchmark::State& state) { AppendStrings(state, false); }
BENCHMARK(BM_AppendStringGrowing)->Arg(1 << 16);

// WriteRows' buffer pattern: 64 input batches of 4096 rows (id long, t int, v double, s string of
// 16), each row for one of 100 tables at random; every iteration gathers each table's rows of all
// batches into one batch (100 TakeBatches calls). A table's rows are one in a hundred. With
// argument 1, 64 MB are written before each iteration (not timed), so that the batches have left
// the caches, as a writer's buffered batches have by the time it gathers them.
void BM_TakeBatchesSpread(benchmark::State& state) {
  constexpr int kBatches = 64, kRows = 4096, kTables = 100;
  auto schema =
      std::make_shared<const BatchSchema>(std::vector<Field>{{"id", DataType::Int64(), false},
                                                             {"t", DataType::Int32(), false},
                                                             {"v", DataType::Float64(), true},
                                                             {"s", DataType::String(), true}});
  std::mt19937_64 random(42);
  std::vector<RecordBatch> batches;
  // Per table, per batch: its rows.
  std::vector<std::vector<std::vector<int64_t>>> rows(kTables,
                                                      std::vector<std::vector<int64_t>>(kBatches));
  for (int b = 0; b < kBatches; ++b) {
    Int64Builder ids;
    Int32Builder tables;
    Float64Builder values;
    StringBuilder strings(DataType::String());
    for (int64_t r = 0; r < kRows; ++r) {
      const auto table = static_cast<int32_t>(random() % kTables);
      ids.Append(b * kRows + r);
      tables.Append(table);
      values.Append(static_cast<double>(random() % 1000000) / 7.0);
      strings.Append(fmt::format("{:016x}", random()));
      rows[static_cast<size_t>(table)][static_cast<size_t>(b)].push_back(r);
    }
    std::vector<Array> columns;
    columns.push_back(ids.Finish().value());
    columns.push_back(tables.Finish().value());
    columns.push_back(values.Finish().value());
    columns.push_back(strings.Finish().value());
    batches.push_back(RecordBatch::Make(schema, std::move(columns), kRows).value());
  }
  std::vector<TakeSource> sources(kBatches);
  std::vector<uint8_t> evict(state.range(0) == 1 ? size_t{64} << 20 : 0);
  for (auto _ : state) {
    if (!evict.empty()) {
      state.PauseTiming();
      for (size_t i = 0; i < evict.size(); i += 64) evict[i] = static_cast<uint8_t>(evict[i] + 1);
      benchmark::ClobberMemory();
      state.ResumeTiming();
    }
    for (int t = 0; t < kTables; ++t) {
      for (int b = 0; b < kBatches; ++b) {
        sources[static_cast<size_t>(b)] = {&batches[static_cast<size_t>(b)],
                                           rows[static_cast<size_t>(t)][static_cast<size_t>(b)]};
      }
      benchmark::DoNotOptimize(TakeBatches(sources));
    }
  }
  state.SetItemsProcessed(state.iterations() * kBatches * kRows);
}
BENCHMARK(BM_TakeBatchesSpread)->Arg(0)->Arg(1);

}  // namespace
}  // namespace floe
