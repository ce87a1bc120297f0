#pragma once

// ORC's run-length encodings, decoded a whole stream at a time: byte RLE, boolean RLE (byte RLE
// of bitmaps, most significant bit first), and the integer encodings RLE v1 and RLE v2 (short
// repeat, direct, patched base and delta runs). Each call decodes exactly `count` values from the
// start of a decompressed stream. A stream that ends inside a run, a run of more values than are
// wanted, a varint longer than 10 bytes or a patch outside its run is a kCorruptData error naming
// the offset in the stream.

#include <cstddef>
#include <cstdint>
#include <span>

#include "floe/util/error.h"

namespace floe::orc {

Status DecodeByteRle(std::span<const std::byte> in, int64_t count, uint8_t* out);

// count bits into an LSB-first bitmap (Arrow's order) at out, which holds (count + 7) / 8 bytes.
Status DecodeBooleanRle(std::span<const std::byte> in, int64_t count, uint8_t* out);

enum class IntRleVersion : uint8_t { kV1, kV2 };

// Signed streams zigzag their values (and RLE v1 deltas are signed either way).
Status DecodeIntRle(std::span<const std::byte> in, IntRleVersion version, bool is_signed,
                    int64_t count, int64_t* out);

}  // namespace floe::orc
