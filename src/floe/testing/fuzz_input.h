#pragma once

// For fuzz targets whose parser reads through an io::InputFile: the input bytes as a file of an
// in-memory FileIO, named `name`.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "floe/io/memory_file_io.h"

namespace floe::testing {

inline std::unique_ptr<io::InputFile> FuzzInputFile(io::MemoryFileIO& io, const std::string& name,
                                                    const uint8_t* data, size_t size) {
  auto output = io.NewOutputFile(name);
  if (!output) return nullptr;
  auto writer = (*output)->CreateOrOverwrite();
  if (!writer) return nullptr;
  if (!(*writer)->Write(std::as_bytes(std::span(data, size))) || !(*writer)->Close()) return nullptr;
  auto input = io.NewInputFile(name);
  return input ? std::move(*input) : nullptr;
}

}  // namespace floe::testing
