// How fast the Parquet reader decodes files into batches, single-threaded: the make-inputs files
// (events.parquet: int64, timestamp, low-cardinality string, double, hex string; lineitem.parquet:
// ints, decimals, dates, strings), every column, a 3-column projection, and each column alone.
// Reports values/s (rows times columns) and decoded bytes/s (the batch buffers filled), over CPU
// time: on a shared machine wall time mostly measures the other processes. Inputs come from
// FLOE_BENCH_INPUTS, a directory written by ../shared/bench/make-inputs.
//
// Two more files, written by floe into the temp folder at start, measure the shapes Arrow C++
// publishes single-core rates for: 10M non-null doubles and 10M int64 with every 10th null, PLAIN
// and uncompressed, so that decoding (not decompression) is what is timed.

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"

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

// Writes the synthetic column as its own PLAIN, uncompressed file; false on failure.
bool WriteSynthetic(const std::filesystem::path& path, bool doubles) {
  constexpr int64_t kRows = 10'000'000;
  std::unique_ptr<ArrayBuilder> builder;
  if (doubles) {
    auto b = std::make_unique<Float64Builder>();
    for (int64_t i = 0; i < kRows; ++i) b->Append(static_cast<double>(i * 7919 % 1000003) / 7);
    builder = std::move(b);
  } else {
    auto b = std::make_unique<Int64Builder>();
    for (int64_t i = 0; i < kRows; ++i) {
      if (i % 10 == 0) {
        b->AppendNull();
      } else {
        b->Append(i * 2654435761);
      }
    }
    builder = std::move(b);
  }
  auto array = builder->Finish();
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      Field{"v", doubles ? DataType::Float64() : DataType::Int64(), !doubles, 1}});
  if (!array) return false;
  auto batch = RecordBatch::Make(schema, {*array}, kRows);
  WriterOptions options;
  options.codec = Codec::kUncompressed;
  options.dictionary_enabled = false;
  options.delta_encoding = false;
  io::LocalFileIO io;
  auto output = io.NewOutputFile(path.string());
  if (!batch || !output) return false;
  auto file = (*output)->CreateOrOverwrite();
  if (!file) return false;
  auto writer = ParquetWriter::Make(std::move(*file), schema, options);
  return writer && (*writer)->Write(*batch) && (*writer)->Close();
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
  const auto temp = std::filesystem::temp_directory_path() / "floe_bench_parquet_read";
  std::filesystem::create_directories(temp);
  for (bool doubles : {true, false}) {
    const auto path = temp / (doubles ? "doubles.parquet" : "nullable_int64.parquet");
    if (floe::parquet::WriteSynthetic(path, doubles)) {
      floe::parquet::Register(path, {"v"});
    } else {
      fmt::print(stderr, "cannot write {}\n", path.string());
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::filesystem::remove_all(temp);
  return 0;
}
