#pragma once

// Finds and decodes the footer of a Parquet file: "PAR1" at both ends, the Thrift FileMetaData
// before the last 8 bytes, its length in the 4 bytes before the closing magic. Files using Parquet
// modular encryption ("PARE", or a plaintext footer naming an encryption algorithm) are refused
// with kUnsupported "encrypted, unsupported". Other malformations are kCorruptData naming the file.

#include <cstdint>
#include <span>

#include "floe/format/parquet/metadata.h"
#include "floe/util/error.h"

namespace floe::parquet {

class RandomAccessSource;

inline constexpr uint32_t kMaxFooterSize = 256u << 20;

Result<FileMetaData> ReadFooter(const RandomAccessSource& source);

// The footer of a whole file held in memory (for tests and small files).
Result<FileMetaData> ParseFooter(std::span<const std::byte> file);

}  // namespace floe::parquet
