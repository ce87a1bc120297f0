// libFuzzer target: arbitrary bytes as an ORC file: its stripe statistics and stripe footers, then
// every row (all columns), then the rows again through a selection of a column the file lacks (no
// stream read, row counts only). Reading must end in batches or an error,
// never a crash, a sanitizer report, a hang or unbounded allocation.

#include <cstddef>
#include <cstdint>

#include "floe/format/orc/batch_reader.h"
#include "floe/format/parquet/source.h"
#include "floe/testing/fuzz_input.h"

namespace {

void ReadAll(const uint8_t* data, size_t size, floe::orc::ReadOptions options, bool tail) {
  // Limits well below the defaults, so that the fuzzer's allocation limit is never what stops it.
  options.file.max_tail_bytes = 16 << 20;
  options.file.max_stream_bytes = 64 << 20;
  auto file = floe::orc::OrcFileReader::Open(
      floe::parquet::MakeMemorySource(floe::testing::FuzzBytes(data, size), "fuzz.orc"),
      options.file);
  if (!file) return;
  if (tail) {
    (void)(*file)->ReadStripeStatistics();
    for (size_t i = 0; i < (*file)->num_stripes() && i < 100; ++i)
      (void)(*file)->ReadStripeFooter(i);
  }
  auto reader = floe::orc::OrcBatchReader::Open(std::move(*file), std::move(options));
  if (reader) floe::testing::ReadBatches(**reader);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  floe::orc::ReadOptions options;
  options.batch_rows = 1024;
  options.file.timestamp_unit = floe::TimeUnit::kNano;
  ReadAll(data, size, options, true);
  floe::orc::ReadOptions second;
  second.select.push_back(floe::Field{"", nullptr, true, std::nullopt});
  ReadAll(data, size, second, false);
  return 0;
}
