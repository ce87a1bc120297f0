// rewrite_data_files (bin-pack compaction) on a local table of many small Parquet files: the time
// to plan, read every file back with its deletes, write the compacted files and commit. Arguments:
// the number of appends (each writes two files, one per category) and rows per append.

#include "floe/table/actions/rewrite_data_files.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "floe/catalog/memory_catalog.h"
#include "floe/io/local_file_io.h"
#include "floe/table/actions/history_test_table.h"

namespace floe::table {
namespace {

void BM_RewriteDataFiles(benchmark::State& state) {
  const int64_t appends = state.range(0);
  const int64_t rows_per_append = state.range(1);
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("floe-bench-rewrite-" + std::to_string(getpid()));
  int64_t run = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const std::string warehouse = (root / std::to_string(run++)).string();
    auto io = std::make_shared<io::LocalFileIO>();
    auto catalog = std::make_shared<catalog::MemoryCatalog>("mem", io, warehouse);
    const catalog::TableIdentifier ident{catalog::Namespace{{"db"}}, "t"};
    auto table = test::CreateHistoryTable(catalog, ident).value();
    for (int64_t i = 0; i < appends; ++i) {
      const int64_t first = i * rows_per_append + 1;
      if (!test::AppendHistoryRows(*table, test::RowsOf(first, first + rows_per_append - 1))) {
        state.SkipWithError("append failed");
        return;
      }
    }
    RewriteDataFilesOptions options;
    options.min_input_files = 2;
    state.ResumeTiming();

    auto result = RewriteDataFiles(*table, options);
    if (!result) {
      state.SkipWithError(result.error().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(result->added_data_files);
    state.counters["files_in"] = static_cast<double>(result->rewritten_data_files);
    state.counters["files_out"] = static_cast<double>(result->added_data_files);
    state.counters["MB_in"] = static_cast<double>(result->rewritten_bytes) / 1e6;
  }
  state.SetItemsProcessed(state.iterations() * appends * rows_per_append);
  std::filesystem::remove_all(root);
}

BENCHMARK(BM_RewriteDataFiles)
    ->Args({32, 20'000})
    ->Args({128, 5'000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

}  // namespace
}  // namespace floe::table
