#pragma once

// Encodes row positions as a Roaring bitmap in the "portable" serialization, 64-bit variant
// (RoaringFormatSpec), the payload of an Iceberg deletion vector (puffin-spec
// "deletion-vector-v1"): a little-endian count of 32-bit bitmaps, each preceded by its 32-bit
// high key, in key order. Each 32-bit bitmap is written without run containers: the cookie 12346,
// the container count, the (key, cardinality - 1) pairs, the offsets, then each container as an
// array of 16-bit values (up to 4,096 values) or a 65,536-bit bitmap. The decoder is
// table/scan/roaring_bitmap.h.

#include <cstdint>
#include <span>
#include <string>

namespace floe::table {

// positions: ascending, distinct and non-negative.
std::string EncodePortableRoaring64(std::span<const int64_t> positions);

}  // namespace floe::table
