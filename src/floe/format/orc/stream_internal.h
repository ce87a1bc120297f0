#pragma once

// ORC's compression framing: a compressed stream (and the footer, metadata and stripe footers) is
// a sequence of chunks, each a 3-byte little-endian header (length << 1 | original) and then
// `length` bytes, stored as they are when `original` is set, else compressed with the file's codec
// to at most the postscript's compression block size. Decoding is bounded twice: each chunk by the
// block size, the whole stream by a caller limit (kResourceExhausted past it), so a decompression
// bomb costs no more memory than the limit.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "floe/format/orc/metadata.h"
#include "floe/util/error.h"

namespace floe::orc {

struct Compression {
  CompressionKind kind = CompressionKind::kNone;
  uint64_t block_size = 0;
};

// The bytes of a decoded stream: a view of the input when it is not compressed, else `owned`.
struct StreamBytes {
  std::vector<std::byte> owned;
  std::span<const std::byte> view;
  bool is_owned = false;

  std::span<const std::byte> bytes() const { return is_owned ? std::span(owned) : view; }
};

// Fails with kUnsupported for LZO, kCorruptData for bad framing or chunks, kResourceExhausted
// past max_output. Error offsets are within `in`.
Result<StreamBytes> DecompressStream(const Compression& compression, std::span<const std::byte> in,
                                     size_t max_output);

}  // namespace floe::orc
