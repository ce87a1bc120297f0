#pragma once

// BYTE_STREAM_SPLIT: the k-th byte of every value in stream k, streams back to back. Decoding
// needs the number of values in the page up front (the stream stride); FLOAT, DOUBLE, INT32,
// INT64 and FIXED_LEN_BYTE_ARRAY. Fixed-length arrays are rebuilt in a buffer of the decoder: the
// views returned stay valid until the next Decode call.

#include <memory>
#include <span>
#include <vector>

#include "floe/format/parquet/encoding/value_decoder.h"

namespace floe::parquet {

// T is float, double, int32_t or int64_t. Fails unless data holds num_values values.
template <typename T>
Result<std::unique_ptr<ValueDecoder<T>>> MakeByteStreamSplitDecoder(std::span<const std::byte> data,
                                                                    size_t num_values);

Result<std::unique_ptr<ValueDecoder<ByteArray>>> MakeByteStreamSplitFixedLenDecoder(
    std::span<const std::byte> data, size_t num_values, int32_t width);

// Encodes values of `width` bytes each, given as their concatenated bytes.
void EncodeByteStreamSplit(std::span<const std::byte> values, size_t width,
                           std::vector<std::byte>& out);

}  // namespace floe::parquet
