#pragma once

// Block compression codecs shared by the Avro and Parquet formats. Each function works on whole
// buffers (one Avro block, one Parquet page). Decompression is always bounded: by the exact size of
// a caller buffer when the format records the uncompressed size, or by a caller limit when it does
// not, so corrupt or hostile input yields a kCorruptData / kResourceExhausted error, never an
// unbounded allocation.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::compression {

enum class Codec : uint8_t {
  kUncompressed,
  kDeflate,    // raw deflate stream, no zlib or gzip header (Avro "deflate")
  kGzip,       // gzip members, possibly several concatenated (Parquet GZIP)
  kZstd,       // zstd frames, possibly several concatenated
  kSnappy,     // raw snappy block, no framing (Avro "snappy" minus its CRC, Parquet SNAPPY)
  kLz4Raw,     // one raw LZ4 block (Parquet LZ4_RAW)
  kLz4Hadoop,  // Hadoop-framed LZ4 blocks (Parquet's deprecated LZ4); decoding falls back to raw
  kBrotli,
};

std::string_view CodecName(Codec codec);

// Used when the caller passes kDefaultLevel: each codec's own default.
inline constexpr int kDefaultLevel = INT32_MIN;

// Appends the compressed form of input to out. level applies to deflate/gzip (0-9), zstd (1-22 and
// negatives) and brotli (0-11); other codecs ignore it.
Status Compress(Codec codec, std::span<const std::byte> input, std::vector<std::byte>& out,
                int level = kDefaultLevel);

// Decompresses input into output, which must be exactly the uncompressed size: producing fewer or
// more bytes is a kCorruptData error.
Status DecompressInto(Codec codec, std::span<const std::byte> input, std::span<std::byte> output);

// An upper bound of what input can decompress to, read from the codec's own header (snappy, zstd
// frames that record their size) or from its largest expansion ratio (lz4, deflate, gzip);
// SIZE_MAX when the codec has no bound (brotli, zstd frames without a size). Lets a caller refuse
// a size from a damaged header before it allocates.
size_t MaxDecompressedSize(Codec codec, std::span<const std::byte> input);

// Decompresses input of unknown uncompressed size, appending to out. More than max_output bytes is
// a kResourceExhausted error (nothing beyond the limit is ever allocated).
Status Decompress(Codec codec, std::span<const std::byte> input, size_t max_output,
                  std::vector<std::byte>& out);

}  // namespace floe::compression
