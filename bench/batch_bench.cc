// How fast decoders can fill builders: values appended per second, one column chunk (Finish
// included) per iteration. The *Growing cases start every chunk from an empty builder and let it
// double; the others Reserve() the chunk's row count first, as a decoder that knows its page or row
// group size does. Growing depends on glibc's heap state: when it trims freed memory back to the
// OS, every chunk page-faults its fresh pages (measured 7M..1G values/s for the same code); with
// MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ raised, growing runs near the reserved rate.

#include <benchmark/benchmark.h>
#include <fmt/core.h>

#include <string>
#include <vector>

#include "floe/batch/builder.h"

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

}  // namespace
}  // namespace floe
