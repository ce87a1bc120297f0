// How fast the Parquet reader decodes files into batches, single-threaded: the make-inputs files
// (events.parquet: int64, timestamp, low-cardinality string, double, hex string; lineitem.parquet:
// ints, decimals, dates, strings), every column, a 3-column projection, and each column alone.
// Reports values/s (rows times columns) and decoded bytes/s (the batch buffers filled), over CPU
// time: on a shared machine wall time mostly measures the other processes. Inputs come from
// FLOE_BENCH_INPUTS, a directory written by ../shared/bench/make-inputs.

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "floe/format/parquet/reader/batch_reader.h"

namespace floe::parquet {
namespace {

int64_t ArrayBytes(const Array& array) {
  int64_t bytes = array.validity().size() + array.values().size() + array.data().size();
  for (const Array& child : array.children()) bytes += ArrayBytes(child);
  return bytes;
}

void ReadFile(benchmark::State& state, const std::string& path, std::vector<Field> select) {
  int64_t values = 0, bytes = 0;
  for (auto _ : state) {
    ReadOptions options;
    options.select = select;
    auto reader = ParquetBatchReader::OpenPath(path, options);
    if (!reader) {
      state.SkipWithError(reader.error().message().c_str());
      return;
    }
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch) {
        state.SkipWithError(batch.error().message().c_str());
        return;
      }
      if (!*batch) break;
      values += (*batch)->num_rows() * (*batch)->num_columns();
      for (int c = 0; c < (*batch)->num_columns(); ++c) bytes += ArrayBytes((*batch)->column(c));
    }
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(values), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(bytes);
}

void Register(const std::filesystem::path& path, const std::vector<std::string>& projection) {
  auto reader = ParquetBatchReader::OpenPath(path.string());
  if (!reader) {
    fmt::print(stderr, "{}: {}\n", path.string(), reader.error().message());
    return;
  }
  const BatchSchema& schema = *(*reader)->schema();
  std::string file = path.stem().string();
  auto add = [&](const std::string& name, std::vector<Field> select) {
    benchmark::RegisterBenchmark(
        name.c_str(),
        [p = path.string(), select](benchmark::State& state) { ReadFile(state, p, select); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(2);
  };
  add(file + "/all", {});
  std::vector<Field> three;
  for (const std::string& name : projection) {
    for (const Field& field : schema.fields()) {
      if (field.name == name) three.push_back(field);
    }
  }
  add(file + "/3cols", three);
  for (const Field& field : schema.fields()) {
    add(fmt::format("{}/{}:{}", file, field.name, field.type->ToString()), {field});
  }
}

}  // namespace
}  // namespace floe::parquet

int main(int argc, char** argv) {
  const char* inputs = std::getenv("FLOE_BENCH_INPUTS");
  if (inputs == nullptr) {
    fmt::print(stderr,
               "set FLOE_BENCH_INPUTS to a directory written by ../shared/bench/make-inputs\n");
    return 2;
  }
  std::filesystem::path dir(inputs);
  floe::parquet::Register(dir / "events.parquet", {"id", "category", "value"});
  floe::parquet::Register(dir / "lineitem.parquet",
                          {"l_orderkey", "l_extendedprice", "l_shipdate"});
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
