#pragma once

// For fuzz targets: the input bytes as a file of an in-memory FileIO (for parsers that read
// through an io::InputFile) or as bytes of their own, and a batch reader read to its end.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/io/memory_file_io.h"

namespace floe::testing {

inline std::unique_ptr<io::InputFile> FuzzInputFile(io::MemoryFileIO& io, const std::string& name,
                                                    const uint8_t* data, size_t size) {
  auto output = io.NewOutputFile(name);
  if (!output) return nullptr;
  auto writer = (*output)->CreateOrOverwrite();
  if (!writer) return nullptr;
  if (!(*writer)->Write(std::as_bytes(std::span(data, size))) || !(*writer)->Close())
    return nullptr;
  auto input = io.NewInputFile(name);
  return input ? std::move(*input) : nullptr;
}

inline std::vector<std::byte> FuzzBytes(const uint8_t* data, size_t size) {
  const auto* begin = reinterpret_cast<const std::byte*>(data);
  return std::vector<std::byte>(begin, begin + size);
}

// Calls reader.Next() (a Result of an optional batch) until the end, an error or max_batches.
template <typename Reader>
void ReadBatches(Reader& reader, int max_batches = 1000) {
  for (int i = 0; i < max_batches; ++i) {
    auto batch = reader.Next();
    if (!batch || !*batch) break;
  }
}

}  // namespace floe::testing
