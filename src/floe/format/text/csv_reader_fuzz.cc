// Fuzz target: arbitrary bytes as a CSV file, read record by record (CsvReader over LineReader's
// blocks), and each line split again with a semicolon delimiter. Reading must end in records or an
// error naming the line, never a crash or a sanitizer report.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/text/csv_reader.h"
#include "floe/io/memory_file_io.h"
#include "floe/testing/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  floe::io::MemoryFileIO io;
  std::vector<std::string_view> fields;
  {
    floe::text::CsvReader csv(floe::testing::FuzzInputFile(io, "mem:/fuzz.csv", data, size));
    while (true) {
      auto more = csv.Next(fields);
      if (!more || !*more) break;
    }
  }
  floe::text::LineReader lines(floe::testing::FuzzInputFile(io, "mem:/fuzz.csv", data, size));
  std::string unquoted;
  std::string_view line;
  while (true) {
    auto more = lines.Next(line);
    if (!more || !*more) break;
    (void)floe::text::SplitCsvRecord(line, ';', fields, unquoted);
  }
  return 0;
}
