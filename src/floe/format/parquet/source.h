#pragma once

// A random-access byte source for the Parquet reader: a local file or bytes in memory. The reader
// needs only its size and positioned reads. It stands in until floe's FileIO (io layer) provides
// input files, which will be adapted to this interface.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::parquet {

class RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;
  virtual uint64_t size() const = 0;
  // Fills out with the bytes at offset; fails (kIO or kCorruptData) if they are not all there.
  virtual Status ReadAt(uint64_t offset, std::span<std::byte> out) const = 0;
  // For error messages: the path or a description.
  virtual const std::string& name() const = 0;

  // Reads length bytes at offset into a new buffer, checking the range against size() first so
  // that a corrupt offset or length cannot allocate more than the file holds.
  Result<std::vector<std::byte>> Read(uint64_t offset, uint64_t length) const;
};

Result<std::unique_ptr<RandomAccessSource>> OpenLocalFile(const std::filesystem::path& path);
std::unique_ptr<RandomAccessSource> MakeMemorySource(std::vector<std::byte> bytes,
                                                     std::string name = "<memory>");

}  // namespace floe::parquet
