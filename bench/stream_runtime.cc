// Rows per second through the dataflow runtime: a collection source -> an identity map -> a sink
// that discards, at parallelism 1 and 2, without checkpoints and with one every 100 ms (written
// to a temp folder). The rows are 4096-row batches of (k long, g int, v string); the same batch is
// emitted over and over, so the figures are the runtime's own cost per batch (channels, thread
// hand-offs, barriers), not decoding. Wall time is what counts: the work runs on the job's
// threads, not the benchmark's.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/data_stream.h"

namespace floe::stream {
namespace {

constexpr int kBatchRows = 4096;
constexpr int kBatches = 20000;

BatchSchemaPtr Schema() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"k", DataType::Int64(), false}, {"g", DataType::Int32(), false}, {"v", DataType::String()}});
}

RecordBatch Batch() {
  std::vector<Value> k, g, v;
  for (int i = 0; i < kBatchRows; ++i) {
    k.emplace_back(int64_t{i});
    g.emplace_back(i % 7);
    v.emplace_back("row-" + std::to_string(i));
  }
  BatchSchemaPtr schema = Schema();
  return *RecordBatch::Make(schema,
                            {*MakeArray(DataType::Int64(), k), *MakeArray(DataType::Int32(), g),
                             *MakeArray(DataType::String(), v)});
}

class Identity : public Operator {
 public:
  Status ProcessBatch(int, RecordBatch batch, Output& output) override {
    return output.Emit(std::move(batch));
  }
};

class Discard : public Operator {
 public:
  Status ProcessBatch(int, RecordBatch batch, Output&) override {
    benchmark::DoNotOptimize(batch.num_rows());
    return {};
  }
};

void BM_SourceMapSink(benchmark::State& state) {
  int parallelism = static_cast<int>(state.range(0));
  int64_t interval_ms = state.range(1);
  static const RecordBatch batch = Batch();
  const std::vector<RecordBatch> batches(kBatches, batch);
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("floe-runtime-bench-" + std::to_string(getpid()));
  int64_t checkpoints = 0;
  for (auto _ : state) {
    std::filesystem::remove_all(dir);
    StreamEnvironment env({.parallelism = parallelism,
                           .checkpoint_interval_ms = interval_ms,
                           .checkpoint_dir = interval_ms > 0 ? dir.string() : ""});
    DataStream rows = env.FromSource(std::make_shared<CollectionSource>(Schema(), batches), "rows");
    DataStream mapped = rows.Transform(
        "map", Schema(),
        [](int) -> Result<std::unique_ptr<Operator>> { return std::make_unique<Identity>(); });
    mapped.SinkTo("discard", [](int) -> Result<std::unique_ptr<Operator>> {
      return std::make_unique<Discard>();
    });
    auto result = env.Execute("bench");
    if (!result) {
      state.SkipWithError(result.error().ToString().c_str());
      break;
    }
    checkpoints += result->checkpoints_completed;
  }
  std::filesystem::remove_all(dir);
  state.SetItemsProcessed(state.iterations() * int64_t{kBatches} * kBatchRows);
  state.counters["checkpoints"] =
      benchmark::Counter(static_cast<double>(checkpoints), benchmark::Counter::kAvgIterations);
}

BENCHMARK(BM_SourceMapSink)
    ->ArgNames({"parallelism", "checkpoint_ms"})
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({1, 100})
    ->Args({2, 100})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace floe::stream
