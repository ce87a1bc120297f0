#pragma once

// PLAIN: fixed-width values little-endian back to back (INT32, INT64, INT96, FLOAT, DOUBLE),
// booleans one bit each (LSB first), BYTE_ARRAY as a 4-byte length and the bytes,
// FIXED_LEN_BYTE_ARRAY as the bytes. Also the encoders, for tests and the writer.

#include <memory>
#include <span>
#include <vector>

#include "floe/format/parquet/encoding/value_decoder.h"

namespace floe::parquet {

// T is int32_t, int64_t, Int96, float or double.
template <typename T>
std::unique_ptr<ValueDecoder<T>> MakePlainDecoder(std::span<const std::byte> data);

std::unique_ptr<ValueDecoder<bool>> MakePlainBooleanDecoder(std::span<const std::byte> data);
std::unique_ptr<ValueDecoder<ByteArray>> MakePlainByteArrayDecoder(std::span<const std::byte> data);
std::unique_ptr<ValueDecoder<ByteArray>> MakePlainFixedLenByteArrayDecoder(
    std::span<const std::byte> data, int32_t width);

template <typename T>
void EncodePlain(std::span<const T> values, std::vector<std::byte>& out);
void EncodePlainBoolean(std::span<const bool> values, std::vector<std::byte>& out);
void EncodePlainByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out);
void EncodePlainFixedLenByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out);

}  // namespace floe::parquet
