// GROUP BY through exec::Aggregate, batch mode: rows/s for 1M and 10M rows of (k bigint with
// 10,000 groups, v bigint, d double) held in memory, grouped by k with COUNT(*), SUM(v), AVG(d),
// MIN(v), MAX(v), at parallelism 1 and 2 (wall time: the work runs on the job's threads).
//
// DuckDB side by side in the same run (when the peer is installed): the same rows, written to
// Parquet once, loaded into a DuckDB table, then the same GROUP BY with threads=1 and with 2,
// timed by DuckDB itself (EXPLAIN ANALYZE), so both sides aggregate rows already in memory; the
// best of 3 runs. Compare the rows/s counters of the same row count and parallelism.

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/sql/exec/relational.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/collection_source.h"
#include "floe/testing/peers.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kGroups = 10'000;
constexpr int64_t kBatchRows = 64 * 1024;

std::vector<RecordBatch> MakeRows(int64_t rows) {
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      {"k", DataType::Int64()}, {"v", DataType::Int64()}, {"d", DataType::Float64()}});
  std::mt19937_64 rng(42);
  std::vector<RecordBatch> batches;
  for (int64_t start = 0; start < rows; start += kBatchRows) {
    int64_t n = std::min(kBatchRows, rows - start);
    Int64Builder k, v;
    Float64Builder d;
    for (int64_t i = 0; i < n; ++i) {
      k.Append(static_cast<int64_t>(rng() % kGroups));
      v.Append(static_cast<int64_t>(rng() % 1'000'000));
      d.Append(static_cast<double>(rng() % 100'000) / 8.0);
    }
    batches.push_back(*RecordBatch::Make(schema, {*k.Finish(), *v.Finish(), *d.Finish()}));
  }
  return batches;
}

const std::vector<RecordBatch>& Rows(int64_t rows) {
  static std::map<int64_t, std::vector<RecordBatch>> cache;
  auto it = cache.find(rows);
  if (it == cache.end()) it = cache.emplace(rows, MakeRows(rows)).first;
  return it->second;
}

void FloeGroupBy(benchmark::State& state) {
  int64_t rows = state.range(0);
  int parallelism = static_cast<int>(state.range(1));
  const auto& batches = Rows(rows);
  for (auto _ : state) {
    stream::StreamEnvironment env(
        {.mode = stream::RuntimeMode::kBatch, .parallelism = parallelism});
    auto source = env.FromSource(
        std::make_shared<stream::CollectionSource>(batches[0].schema(), batches), "rows");
    auto grouped = Aggregate(source, {0},
                             {{.kind = AggregateKind::kCountStar},
                              {.kind = AggregateKind::kSum, .argument = 1},
                              {.kind = AggregateKind::kAvg, .argument = 2},
                              {.kind = AggregateKind::kMin, .argument = 1},
                              {.kind = AggregateKind::kMax, .argument = 1}});
    if (!grouped) {
      state.SkipWithError(grouped.error().message().c_str());
      return;
    }
    auto collected = env.Collect(*grouped, "collect");
    auto result = env.Execute("group-by");
    if (!result) {
      state.SkipWithError(result.error().message().c_str());
      return;
    }
    if (collected->num_rows() != kGroups) state.SkipWithError("wrong number of groups");
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(rows) * state.iterations(),
                                                benchmark::Counter::kIsRate);
}

// DuckDB's own timing of the query (EXPLAIN ANALYZE's "Total Time"), the best of 3 processes.
double BestSeconds(const std::string& sql) {
  double best = 1e18;
  for (int run = 0; run < 3; ++run) {
    auto out = testing::RunPeer("duck", {sql});
    if (!out) return -1;
    size_t at = out->find("Total Time: ");
    if (at == std::string::npos) return -1;
    best = std::min(best, std::stod(out->substr(at + 12)));
  }
  return best;
}

// DuckDB's time for the GROUP BY alone, or -1 without the peer.
double DuckSeconds(int64_t rows, int threads) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / fmt::format("floe_sql_aggregate_{}.parquet", rows);
  if (!std::filesystem::exists(path)) {
    io::LocalFileIO io;
    auto output = io.NewOutputFile(path.string());
    if (!output) return -1;
    auto file = (*output)->CreateOrOverwrite();
    if (!file) return -1;
    const auto& batches = Rows(rows);
    auto writer = parquet::ParquetWriter::Make(std::move(*file), batches[0].schema(), {});
    if (!writer) return -1;
    for (const RecordBatch& batch : batches) {
      if (!(*writer)->Write(batch)) return -1;
    }
    if (!(*writer)->Close()) return -1;
  }
  return BestSeconds(fmt::format(
      "SET threads = {}; CREATE TABLE t AS SELECT * FROM read_parquet('{}'); EXPLAIN ANALYZE "
      "SELECT k, COUNT(*), SUM(v), AVG(d), MIN(v), MAX(v) FROM t GROUP BY k",
      threads, path.string()));
}

void DuckGroupBy(benchmark::State& state) {
  int64_t rows = state.range(0);
  double seconds = 0;
  for (auto _ : state) {
    seconds = DuckSeconds(rows, static_cast<int>(state.range(1)));
    if (seconds < 0) {
      state.SkipWithError("DuckDB peer not installed");
      return;
    }
    state.SetIterationTime(seconds);
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(rows) / seconds);
}

BENCHMARK(FloeGroupBy)
    ->ArgsProduct({{1'000'000, 10'000'000}, {1, 2}})
    ->ArgNames({"rows", "parallelism"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(1.0);
BENCHMARK(DuckGroupBy)
    ->ArgsProduct({{1'000'000, 10'000'000}, {1, 2}})
    ->ArgNames({"rows", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(1);

}  // namespace
}  // namespace floe::sql::exec
