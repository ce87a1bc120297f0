// Fuzz target: arbitrary bytes as a Puffin file: its footer's blob directory, then every blob it
// lists read as a deletion vector (however the footer types it), and the whole input decoded as one
// deletion vector blob too. Reading must end in blobs and positions or kCorruptData, never a crash,
// a sanitizer report or an unbounded allocation.

#include <cstddef>
#include <cstdint>
#include <span>

#include "floe/io/memory_file_io.h"
#include "floe/table/scan/puffin_reader.h"
#include "floe/testing/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    floe::table::PositionDeleteIndex positions;
    (void)floe::table::DecodeDeletionVector(std::span(data, size), "fuzz blob", positions);
  }
  floe::io::MemoryFileIO io;
  auto file = floe::testing::FuzzInputFile(io, "mem:/fuzz.puffin", data, size);
  if (!file) return 0;
  auto blobs = floe::table::ReadPuffinBlobs(*file);
  if (!blobs) return 0;
  for (const floe::table::PuffinBlob& blob : *blobs) {
    floe::table::PositionDeleteIndex positions;
    (void)floe::table::ReadDeletionVector(*file, blob.offset, blob.length, positions);
  }
  return 0;
}
