#pragma once

// A random-access byte source for the Parquet reader: a local file, bytes in memory, or any
// FileIO's input file (reader/input_file_source.h). The reader needs its size and positioned
// reads, and tells the source ahead which ranges it will read, so that a remote one can fetch them
// in parallel.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::parquet {

// The bytes [offset, offset + length).
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

class RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;
  virtual uint64_t size() const = 0;
  // Fills out with the bytes at offset; fails (kIO or kCorruptData) if they are not all there.
  virtual Status ReadAt(uint64_t offset, std::span<std::byte> out) const = 0;
  // For error messages: the path or a description.
  virtual const std::string& name() const = 0;
  // Says that ranges will be read soon. A source over a remote file fetches them at once,
  // coalesced and in parallel, and serves the reads inside them from memory; a local one ignores
  // it. Never fails: a range whose fetch failed is read again, and reported, by the read that
  // needs it.
  virtual void WillRead(std::span<const ByteRange> ranges) const { (void)ranges; }

  // Reads length bytes at offset into a new buffer, checking the range against size() first so
  // that a corrupt offset or length cannot allocate more than the file holds.
  Result<std::vector<std::byte>> Read(uint64_t offset, uint64_t length) const;
};

Result<std::unique_ptr<RandomAccessSource>> OpenLocalFile(const std::filesystem::path& path);
std::unique_ptr<RandomAccessSource> MakeMemorySource(std::vector<std::byte> bytes,
                                                     std::string name = "<memory>");

}  // namespace floe::parquet
