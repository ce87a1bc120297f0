// Rows per second through the table writer stack into Parquet (zstd, the default codec): an
// unpartitioned table, and a fanout writer spreading the same rows over 100 partitions
// (bucket[100] of the id). Each iteration writes 1M rows of (id long, ts timestamptz, category
// string, amount double) in 64K-row batches to fresh files in a temp folder, closes them and
// deletes them; the files' metadata (metrics, split offsets) is computed as for a commit.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/io/local_file_io.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/table/write/fanout_writer.h"

namespace floe::table {
namespace {

constexpr int64_t kRows = 1 << 20;
constexpr int64_t kBatchRows = 1 << 16;

struct Input {
  SchemaPtr schema = std::make_shared<const Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Long()), types::Optional(2, "ts", types::TimestampTz()),
      types::Optional(3, "category", types::String()),
      types::Optional(4, "amount", types::Double())});
  BatchSchemaPtr batch_schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64(), false, 1},
      {"ts", DataType::Timestamp(TimeUnit::kMicro, true), true, 2},
      {"category", DataType::String(), true, 3},
      {"amount", DataType::Float64(), true, 4}});
  std::vector<RecordBatch> batches;

  Input() {
    std::mt19937_64 rng(1);
    const char* categories[] = {"books", "games", "garden", "music", "sports", "tools"};
    for (int64_t start = 0; start < kRows; start += kBatchRows) {
      Int64Builder ids, ts(DataType::Timestamp(TimeUnit::kMicro, true));
      StringBuilder cats(DataType::String());
      Float64Builder amounts;
      for (int64_t i = start; i < start + kBatchRows; ++i) {
        ids.Append(static_cast<int64_t>(rng() >> 20));
        ts.Append(1'700'000'000'000'000LL + i * 1000);
        cats.Append(categories[rng() % 6]);
        amounts.Append(static_cast<double>(rng() % 100000) / 100.0);
      }
      batches.push_back(*RecordBatch::Make(
          batch_schema, {*ids.Finish(), *ts.Finish(), *cats.Finish(), *amounts.Finish()}));
    }
  }
};

void WriteAll(benchmark::State& state, PartitionSpecPtr spec) {
  static const Input input;
  io::LocalFileIO io;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("floe-write-bench-" + std::to_string(getpid()));
  auto properties = *WriteProperties::Parse({});
  int64_t files = 0;
  for (auto _ : state) {
    OutputFileFactory names(LocationProvider(dir.string(), {}), {});
    WriterContext context{.io = &io, .data_files = &names, .properties = &properties,
                          .schema = input.schema, .batch_schema = input.batch_schema,
                          .spec = spec};
    auto writer = FanoutWriter::Make(context);
    if (!writer) state.SkipWithError(writer.error().ToString().c_str());
    for (const RecordBatch& batch : input.batches) {
      auto status = (*writer)->Write(batch);
      if (!status) state.SkipWithError(status.error().ToString().c_str());
    }
    auto result = (*writer)->Close();
    if (!result) state.SkipWithError(result.error().ToString().c_str());
    files = static_cast<int64_t>(result->data_files.size());
    state.PauseTiming();
    std::filesystem::remove_all(dir);
    state.ResumeTiming();
  }
  state.counters["files"] = static_cast<double>(files);
  state.SetItemsProcessed(state.iterations() * kRows);
}

// The same rows through format/parquet alone: what the table layers add on top of it.
void BM_ParquetWriterAlone(benchmark::State& state) {
  static const Input input;
  io::LocalFileIO io;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("floe-write-bench-" + std::to_string(getpid()) + ".parquet"))
                               .string();
  for (auto _ : state) {
    auto file = (*io.NewOutputFile(path))->CreateOrOverwrite();
    auto writer = parquet::ParquetWriter::Make(std::move(*file), input.batch_schema, {});
    if (!writer) state.SkipWithError(writer.error().ToString().c_str());
    for (const RecordBatch& batch : input.batches) {
      if (!(*writer)->Write(batch)) state.SkipWithError("write failed");
    }
    if (!(*writer)->Close()) state.SkipWithError("close failed");
  }
  std::filesystem::remove(path);
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ParquetWriterAlone)->Unit(benchmark::kMillisecond)->MinTime(3);

void BM_WriteUnpartitioned(benchmark::State& state) { WriteAll(state, nullptr); }
BENCHMARK(BM_WriteUnpartitioned)->Unit(benchmark::kMillisecond)->MinTime(3);

void BM_WriteFanout100Partitions(benchmark::State& state) {
  WriteAll(state, std::make_shared<const PartitionSpec>(
                      0, std::vector<PartitionField>{{{1}, 1000, "id_bucket", Transform::Bucket(100)}}));
}
BENCHMARK(BM_WriteFanout100Partitions)->Unit(benchmark::kMillisecond)->MinTime(3);

}  // namespace
}  // namespace floe::table
