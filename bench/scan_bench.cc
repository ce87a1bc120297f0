// Rows per second of reading a scan task: one Parquet data file of 2 million rows (long id,
// string name, double value), without deletes, with position deletes (every 10th row, as a
// position delete file), and with equality deletes (10,000 ids). And a selective filter (0.1% of
// the ids) over the shared 10-million-row events.parquet, read as one task of a table with and
// without filter push-down into the Parquet reader (/push:1 and /push:0), and a filter that
// statistics cannot rule out (1% of the rows, in every row group). Run:
//   INPUTS=<folder of bench/make-inputs' files> build/release/bench/floe_bench_scan
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "floe/batch/builder.h"
#include "floe/expr/expression.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/table/scan/task_reader.h"

namespace floe::table {
namespace {

constexpr int64_t kRows = 2'000'000;
constexpr int32_t kFilePathId = 2147483546;
constexpr int32_t kPosId = 2147483545;

struct Fixture {
  std::filesystem::path dir;
  std::shared_ptr<io::FileIO> io = std::make_shared<io::LocalFileIO>();
  SchemaPtr schema;
  DataFilePtr data, positions, equality;

  DataFilePtr Write(const std::string& name, const RecordBatch& batch,
                    manifest::FileContent content, std::vector<int32_t> ids = {}) {
    const std::string path = (dir / name).string();
    auto writer =
        parquet::ParquetWriter::Make(*(*io->NewOutputFile(path))->Create(), batch.schema(), {});
    (void)(*writer)->Write(batch);
    auto result = (*writer)->Close();
    auto file = std::make_shared<manifest::DataFile>();
    file->content = content;
    file->file_path = path;
    file->file_format = "parquet";
    file->record_count = result->row_count;
    file->file_size_in_bytes = result->file_size;
    file->equality_ids = std::move(ids);
    return file;
  }

  Fixture() {
    dir = std::filesystem::temp_directory_path() / "floe-scan-bench";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    schema = std::make_shared<const Schema>(std::vector<NestedField>{
        types::Required(1, "id", types::Long()), types::Optional(2, "name", types::String()),
        types::Optional(3, "value", types::Double())});
    Int64Builder ids;
    StringBuilder names(DataType::String());
    Float64Builder values;
    for (int64_t i = 0; i < kRows; ++i) {
      ids.Append(i);
      names.Append("name-" + std::to_string(i % 1000));
      values.Append(static_cast<double>(i) * 0.5);
    }
    auto fields = std::make_shared<BatchSchema>(std::vector<Field>{
        Field{"id", DataType::Int64(), false, 1}, Field{"name", DataType::String(), true, 2},
        Field{"value", DataType::Float64(), true, 3}});
    data = Write("data.parquet",
                 *RecordBatch::Make(fields, {*ids.Finish(), *names.Finish(), *values.Finish()}),
                 manifest::FileContent::kData);
    StringBuilder paths(DataType::String());
    Int64Builder pos;
    for (int64_t i = 0; i < kRows; i += 10) {
      paths.Append(data->file_path);
      pos.Append(i);
    }
    auto pos_fields = std::make_shared<BatchSchema>(
        std::vector<Field>{Field{"file_path", DataType::String(), false, kFilePathId},
                           Field{"pos", DataType::Int64(), false, kPosId}});
    positions =
        Write("pos.parquet", *RecordBatch::Make(pos_fields, {*paths.Finish(), *pos.Finish()}),
              manifest::FileContent::kPositionDeletes);
    Int64Builder keys;
    for (int64_t i = 0; i < 10000; ++i) keys.Append(i * 7);
    auto eq_fields =
        std::make_shared<BatchSchema>(std::vector<Field>{Field{"id", DataType::Int64(), false, 1}});
    equality = Write("eq.parquet", *RecordBatch::Make(eq_fields, {*keys.Finish()}),
                     manifest::FileContent::kEqualityDeletes, {1});
  }
};

Fixture& Get() {
  static Fixture fixture;
  return fixture;
}

void Scan(benchmark::State& state, std::vector<DataFilePtr> deletes) {
  Fixture& f = Get();
  FileScanTask task;
  task.data_file = f.data;
  task.length = f.data->file_size_in_bytes;
  task.deletes = std::move(deletes);
  int64_t rows = 0;
  for (auto _ : state) {
    TaskReader reader(f.io, f.schema, f.schema);
    auto status = reader.Read(task, [&](RecordBatch batch) {
      rows += batch.num_rows();
      return Ok();
    });
    if (!status) state.SkipWithError(status.error().ToString().c_str());
  }
  // Rows of the data file scanned, whether deleted or not.
  state.SetItemsProcessed(state.iterations() * kRows);
  state.counters["rows_out"] = static_cast<double>(rows) / state.iterations();
}

void BM_ScanNoDeletes(benchmark::State& state) { Scan(state, {}); }
void BM_ScanPositionDeletes(benchmark::State& state) { Scan(state, {Get().positions}); }
void BM_ScanEqualityDeletes(benchmark::State& state) { Scan(state, {Get().equality}); }
BENCHMARK(BM_ScanNoDeletes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanPositionDeletes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanEqualityDeletes)->Unit(benchmark::kMillisecond);

void ScanEvents(benchmark::State& state, const expr::ExprPtr& unbound) {
  const char* inputs = std::getenv("INPUTS");
  if (inputs == nullptr) {
    state.SkipWithError("set INPUTS to the folder holding events.parquet");
    return;
  }
  const std::string path = std::string(inputs) + "/events.parquet";
  auto opened = parquet::ParquetBatchReader::OpenPath(path);
  if (!opened) {
    state.SkipWithError(opened.error().ToString().c_str());
    return;
  }
  auto file = std::make_shared<manifest::DataFile>();
  file->file_path = path;
  file->file_format = "parquet";
  file->record_count = (*opened)->file().metadata().num_rows;
  file->file_size_in_bytes = static_cast<int64_t>(std::filesystem::file_size(path));
  auto schema = std::make_shared<const Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Long()), types::Optional(2, "ts", types::Timestamp()),
      types::Optional(3, "category", types::String()),
      types::Optional(4, "value", types::Decimal(21, 1)),
      types::Optional(5, "payload", types::String())});
  auto filter = expr::Bind(unbound, *schema);
  FileScanTask task;
  task.data_file = file;
  task.length = file->file_size_in_bytes;
  task.residual = *filter;
  TaskReadOptions options;
  options.push_down_filter = state.range(0) != 0;
  int64_t rows = 0;
  ScanSkipMetrics skipped;
  for (auto _ : state) {
    TaskReader reader(std::make_shared<io::LocalFileIO>(), schema, schema, options);
    auto status = reader.Read(task, [&](RecordBatch batch) {
      rows += batch.num_rows();
      return Ok();
    });
    if (!status) state.SkipWithError(status.error().ToString().c_str());
    skipped = reader.skip_metrics();
  }
  state.SetItemsProcessed(state.iterations() * file->record_count);
  state.counters["rows_out"] = static_cast<double>(rows) / state.iterations();
  state.counters["row_groups_skipped"] = static_cast<double>(skipped.row_groups_skipped);
}
void BM_ScanEventsSelective(benchmark::State& state) {
  ScanEvents(state, expr::And(expr::GreaterThanOrEqual("id", Literal::Long(5000000)),
                              expr::LessThan("id", Literal::Long(5010000))));
}
// A filter no statistics can rule out (every row group holds every category): what push-down
// costs when it saves nothing.
void BM_ScanEventsUnselective(benchmark::State& state) {
  ScanEvents(state, expr::Equal("category", Literal::String("cat_5")));
}
BENCHMARK(BM_ScanEventsSelective)
    ->ArgName("push")
    ->Arg(0)
    ->Arg(1)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanEventsUnselective)
    ->ArgName("push")
    ->Arg(0)
    ->Arg(1)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace floe::table
