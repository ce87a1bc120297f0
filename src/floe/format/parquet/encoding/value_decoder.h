#pragma once

// The interface every value decoder implements, and the value types they produce. A decoder reads
// one page's (or one dictionary's) encoded values from a byte span it does not own. Byte-array
// values are views into that span, or into the decoder (DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT of
// fixed-length arrays): callers must copy them before the next Decode call on the same decoder.
// Decode checks bounds once per call and fails with kCorruptData when the page holds fewer values
// than asked for or is malformed; it never reads outside the span.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "floe/util/error.h"

namespace floe::parquet {

// The legacy 12-byte timestamp: nanoseconds of the day (8 bytes) then the Julian day (4 bytes),
// little-endian.
struct Int96 {
  uint32_t words[3] = {0, 0, 0};
  bool operator==(const Int96&) const = default;
};

using ByteArray = std::string_view;

template <typename T>
class ValueDecoder {
 public:
  virtual ~ValueDecoder() = default;
  // Decodes the next out.size() values.
  virtual Status Decode(std::span<T> out) = 0;
};

}  // namespace floe::parquet
