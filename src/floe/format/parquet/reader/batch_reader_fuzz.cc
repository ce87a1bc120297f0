// libFuzzer target: arbitrary bytes as a Parquet file, read into batches (all columns, then again
// with an equality predicate so that statistics and bloom filters are consulted). Reading must end
// in batches or an error, never a crash, a sanitizer report, a hang or unbounded allocation.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/testing/fuzz_input.h"

namespace {

void ReadAll(const uint8_t* data, size_t size, floe::parquet::ReadOptions options) {
  auto file = floe::parquet::FileReader::Open(
      floe::parquet::MakeMemorySource(floe::testing::FuzzBytes(data, size), "fuzz.parquet"));
  if (!file) return;
  auto reader = floe::parquet::ParquetBatchReader::Open(std::move(*file), std::move(options));
  if (reader) floe::testing::ReadBatches(**reader);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  floe::parquet::ReadOptions options;
  options.batch_rows = 1024;
  ReadAll(data, size, options);
  if (size > 0) {
    // A predicate on the first column, whatever its name: an id, a number and a string each.
    for (int kind = 0; kind < 3; ++kind) {
      floe::parquet::ColumnPredicate predicate;
      predicate.field_id = 1;
      predicate.op = floe::parquet::ColumnPredicate::Op::kEq;
      if (kind == 0) predicate.value = int64_t{data[0]};
      if (kind == 1) predicate.value = static_cast<double>(data[0]);
      if (kind == 2) predicate.value = std::string(1, static_cast<char>(data[0]));
      options.predicates = {predicate};
      ReadAll(data, size, options);
    }
  }
  return 0;
}
