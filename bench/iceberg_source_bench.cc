// Rows per second of reading an Iceberg table: the scan layer alone (TableScan + TaskReader on
// one thread) against IcebergSource in a batch job of the runtime at parallelism 1, 2 and 4 (the
// split enumerator, readers, channels and a counting sink). The table: 8 Parquet files of 250,000
// rows (long id, string name, double value) in a hadoop catalog under the temp folder. Run:
//   build/bench/bench/floe_bench_iceberg_source
#include <benchmark/benchmark.h>

#include <atomic>
#include <filesystem>

#include "floe/batch/builder.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/iceberg_source.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/table/update/fast_append.h"

namespace floe::stream {
namespace {

constexpr int kFiles = 8;
constexpr int64_t kRowsPerFile = 250'000;

struct Fixture {
  std::filesystem::path dir;
  TableLoader loader = TableLoader::FromFolder("/");
  std::shared_ptr<table::Table> table;

  Fixture() {
    dir = std::filesystem::temp_directory_path() / "floe-iceberg-source-bench";
    std::filesystem::remove_all(dir);
    loader = TableLoader::FromCatalog(
        "bench", {{"catalog-type", "hadoop"}, {"warehouse", (dir / "warehouse").string()}},
        catalog::TableIdentifier{{{"db"}}, "t"});
    auto catalog = *loader.LoadCatalog();
    (void)catalog->CreateNamespace({{"db"}}, {});
    catalog::CreateTableRequest request;
    request.schema = std::make_shared<const Schema>(std::vector<NestedField>{
        types::Required(1, "id", types::Long()), types::Optional(2, "name", types::String()),
        types::Optional(3, "value", types::Double())});
    (void)catalog->CreateTable(catalog::TableIdentifier{{{"db"}}, "t"}, request);
    table = *loader.Load();
    auto fields = std::make_shared<BatchSchema>(std::vector<Field>{
        Field{"id", DataType::Int64(), false, 1}, Field{"name", DataType::String(), true, 2},
        Field{"value", DataType::Float64(), true, 3}});
    auto append = table->NewFastAppend();
    for (int f = 0; f < kFiles; ++f) {
      Int64Builder ids;
      StringBuilder names(DataType::String());
      Float64Builder values;
      for (int64_t i = f * kRowsPerFile; i < (f + 1) * kRowsPerFile; ++i) {
        ids.Append(i);
        names.Append("name-" + std::to_string(i % 1000));
        values.Append(static_cast<double>(i) * 0.5);
      }
      auto batch = *RecordBatch::Make(fields, {*ids.Finish(), *names.Finish(), *values.Finish()});
      const std::string path =
          (dir / "warehouse/db/t/data" / ("f" + std::to_string(f) + ".parquet")).string();
      auto writer =
          parquet::ParquetWriter::Make(*(*table->io()->NewOutputFile(path))->Create(), fields, {});
      (void)(*writer)->Write(batch);
      auto result = (*writer)->Close();
      manifest::DataFile file;
      file.file_path = path;
      file.file_format = "parquet";
      file.record_count = result->row_count;
      file.file_size_in_bytes = result->file_size;
      file.split_offsets = result->split_offsets;
      append->AppendFile(file);
    }
    (void)append->Commit();
  }
};

Fixture& Get() {
  static Fixture fixture;
  return fixture;
}

void BM_ScanLayer(benchmark::State& state) {
  Fixture& f = Get();
  int64_t rows = 0;
  for (auto _ : state) {
    table::TableScan scan(f.table->metadata(), f.table->io());
    auto tasks = scan.PlanTasks();
    table::TaskReader reader(f.table->io(), *scan.schema(), *scan.ProjectedSchema());
    for (const auto& group : *tasks) {
      (void)reader.Read(group, [&](RecordBatch batch) {
        rows += batch.num_rows();
        return Ok();
      });
    }
  }
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_ScanLayer)->Unit(benchmark::kMillisecond)->UseRealTime();

class CountingSink final : public Operator {
 public:
  explicit CountingSink(std::atomic<int64_t>& rows) : rows_(rows) {}
  Status ProcessBatch(int, RecordBatch batch, Output&) override {
    rows_ += batch.num_rows();
    return Ok();
  }

 private:
  std::atomic<int64_t>& rows_;
};

void BM_SourceBatchJob(benchmark::State& state) {
  Fixture& f = Get();
  const int parallelism = static_cast<int>(state.range(0));
  std::atomic<int64_t> rows = 0;
  for (auto _ : state) {
    auto source = *IcebergSource::ForRows(f.loader).Build();
    StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = parallelism});
    DataStream stream = env.FromSource(source, "iceberg");
    stream.Forward().SinkTo("count", [&](int) -> Result<std::unique_ptr<Operator>> {
      return std::make_unique<CountingSink>(rows);
    });
    auto result = env.Execute("bench");
    if (!result) state.SkipWithError(result.error().ToString().c_str());
  }
  if (rows.load() % (kFiles * kRowsPerFile) != 0) state.SkipWithError("rows lost");
  state.SetItemsProcessed(rows.load());
}
BENCHMARK(BM_SourceBatchJob)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace floe::stream
