#pragma once

// A decoder of Roaring bitmaps in the "portable" serialization (RoaringFormatSpec), 64-bit
// variant: a little-endian count of 32-bit bitmaps, each preceded by its 32-bit high key. Each
// 32-bit bitmap holds array, bitmap and run containers. This is the payload of Iceberg deletion
// vectors (puffin-spec "deletion-vector-v1"). Decoding writes positions straight into a
// PositionDeleteIndex, so a hostile bitmap costs no more memory than the index allows.
//
// Errors (kCorruptData, with the byte offset): truncated input, an unknown cookie, keys out of
// order, a run that passes the end of its container, bytes left over.

#include <cstdint>
#include <span>

#include "floe/table/scan/position_delete_index.h"
#include "floe/util/error.h"

namespace floe::table {

Status DecodePortableRoaring64(std::span<const uint8_t> bytes, PositionDeleteIndex& out);

}  // namespace floe::table
