#pragma once

// The 32-bit Murmur3 hash (x86 variant) that Iceberg's bucket transform is defined on (spec "Bucket
// Transform Details" and Appendix B), and the spec's per-type rules for turning a value into the
// bytes that are hashed. Results are signed, as the spec's test values are; the bucket transform
// masks the sign bit away itself. These never fail: every input has a hash.

#include <cstdint>
#include <string_view>

namespace floe {

// MurmurHash3_x86_32 of the bytes.
uint32_t Murmur3Hash32(std::string_view bytes, uint32_t seed = 0);

// Appendix B, seed 0. int and long hash alike (an int is hashed as the long of the same value), so
// promoting a column from int to long keeps its bucket values.
int32_t Murmur3HashLong(int64_t v);
inline int32_t Murmur3HashInt(int32_t v) { return Murmur3HashLong(v); }
// Days since 1970-01-01.
inline int32_t Murmur3HashDate(int32_t days) { return Murmur3HashLong(days); }
// Microseconds since midnight.
inline int32_t Murmur3HashTime(int64_t micros) { return Murmur3HashLong(micros); }
// Microseconds since the epoch (timestamp and timestamptz).
inline int32_t Murmur3HashTimestamp(int64_t micros) { return Murmur3HashLong(micros); }
// Nanoseconds since the epoch (timestamp_ns and timestamptz_ns): hashed at microsecond precision,
// rounding toward negative infinity, so that a value hashes as its microsecond counterpart does.
int32_t Murmur3HashTimestampNs(int64_t nanos);
// The unscaled value as its shortest two's-complement big-endian bytes; the scale plays no part.
int32_t Murmur3HashDecimal(__int128 unscaled);
// string (its UTF-8 bytes), uuid (its 16 big-endian bytes), fixed and binary.
int32_t Murmur3HashBytes(std::string_view bytes);
inline int32_t Murmur3HashString(std::string_view utf8) { return Murmur3HashBytes(utf8); }
inline int32_t Murmur3HashUuid(std::string_view bytes16) { return Murmur3HashBytes(bytes16); }
inline int32_t Murmur3HashFixed(std::string_view bytes) { return Murmur3HashBytes(bytes); }
inline int32_t Murmur3HashBinary(std::string_view bytes) { return Murmur3HashBytes(bytes); }
// Not valid for bucketing today; the spec fixes them in case that changes. Floats hash as the
// double of the same value, -0.0 as 0.0 and every NaN as the canonical NaN.
inline int32_t Murmur3HashBoolean(bool v) { return Murmur3HashLong(v ? 1 : 0); }
int32_t Murmur3HashDouble(double v);
inline int32_t Murmur3HashFloat(float v) { return Murmur3HashDouble(static_cast<double>(v)); }

}  // namespace floe
