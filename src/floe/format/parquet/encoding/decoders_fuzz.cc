// Fuzz target: the Parquet value decoders, one encoding and physical type at a time. The input is
// a 4-byte header, then the encoded page values:
//   byte 0  the decoder (kDecoders below; taken modulo their number)
//   byte 1  a parameter: bit width (RLE, BIT_PACKED), dictionary size - 1, or fixed length - 1
//   2..3    how many values to decode (little-endian, at most 65535)
// Decoding must end in values or kCorruptData, never a crash, a read outside the page or a
// sanitizer report. Values are decoded in runs of varying length, as a column reader asks for them.

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "floe/format/parquet/encoding/bit_packed.h"
#include "floe/format/parquet/encoding/byte_stream_split.h"
#include "floe/format/parquet/encoding/delta_binary_packed.h"
#include "floe/format/parquet/encoding/delta_byte_array.h"
#include "floe/format/parquet/encoding/delta_length_byte_array.h"
#include "floe/format/parquet/encoding/dictionary.h"
#include "floe/format/parquet/encoding/plain.h"
#include "floe/format/parquet/encoding/rle.h"

namespace {

using floe::parquet::ByteArray;
using floe::parquet::Int96;
using floe::parquet::ValueDecoder;

// Runs of 1, 7, 64 and 1000 values, in turn, until `count` are decoded or decoding fails.
template <typename T, typename Decode>
void DecodeRuns(size_t count, Decode&& decode) {
  static constexpr size_t kRuns[] = {1, 7, 64, 1000};
  // Not a vector: vector<bool> has no span.
  auto out = std::make_unique<T[]>(1000);
  for (size_t done = 0, i = 0; done < count; ++i) {
    size_t n = std::min(kRuns[i % 4], count - done);
    if (!decode(std::span<T>(out.get(), n))) return;
    done += n;
  }
}

template <typename T>
void Run(std::unique_ptr<ValueDecoder<T>> decoder, size_t count) {
  if (!decoder) return;
  DecodeRuns<T>(count, [&](std::span<T> out) { return decoder->Decode(out).has_value(); });
}

template <typename T, typename E>
void Run(floe::Result<std::unique_ptr<E>> decoder, size_t count) {
  if (!decoder) return;
  Run<T>(std::unique_ptr<ValueDecoder<T>>(std::move(*decoder)), count);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const int decoder = data[0] % 20;
  const int param = data[1];
  const size_t count = data[2] | (size_t{data[3]} << 8);
  const auto page = std::as_bytes(std::span(data + 4, size - 4));
  namespace pq = floe::parquet;
  switch (decoder) {
    case 0: Run(pq::MakePlainDecoder<int32_t>(page), count); break;
    case 1: Run(pq::MakePlainDecoder<int64_t>(page), count); break;
    case 2: Run(pq::MakePlainDecoder<Int96>(page), count); break;
    case 3: Run(pq::MakePlainDecoder<float>(page), count); break;
    case 4: Run(pq::MakePlainDecoder<double>(page), count); break;
    case 5: Run(pq::MakePlainBooleanDecoder(page), count); break;
    case 6: Run(pq::MakePlainByteArrayDecoder(page), count); break;
    case 7: Run(pq::MakePlainFixedLenByteArrayDecoder(page, param + 1), count); break;
    case 8: {
      auto rle = pq::RleBitPackedDecoder::Make(page, param % 40);
      if (!rle) break;
      DecodeRuns<uint32_t>(count, [&](std::span<uint32_t> out) { return rle->Decode(out).has_value(); });
      break;
    }
    case 9: {
      std::vector<int16_t> levels(count);
      (void)pq::DecodeBitPackedLevels(page, param % 20, levels);
      break;
    }
    case 10: {
      // Dictionary indices over a dictionary of param + 1 values.
      std::vector<int32_t> dictionary(param + 1);
      for (size_t i = 0; i < dictionary.size(); ++i) dictionary[i] = static_cast<int32_t>(i);
      Run<int32_t>(pq::MakeDictionaryDecoder<int32_t>(dictionary, page), count);
      break;
    }
    case 11: Run<int32_t>(pq::DeltaBinaryPackedDecoder<int32_t>::Make(page), count); break;
    case 12: Run<int64_t>(pq::DeltaBinaryPackedDecoder<int64_t>::Make(page), count); break;
    case 13: Run<ByteArray>(pq::DeltaLengthByteArrayDecoder::Make(page), count); break;
    case 14: Run<ByteArray>(pq::DeltaByteArrayDecoder::Make(page), count); break;
    case 15: Run<float>(pq::MakeByteStreamSplitDecoder<float>(page, count), count); break;
    case 16: Run<double>(pq::MakeByteStreamSplitDecoder<double>(page, count), count); break;
    case 17: Run<int32_t>(pq::MakeByteStreamSplitDecoder<int32_t>(page, count), count); break;
    case 18: Run<int64_t>(pq::MakeByteStreamSplitDecoder<int64_t>(page, count), count); break;
    case 19:
      Run<ByteArray>(pq::MakeByteStreamSplitFixedLenDecoder(page, count, param + 1), count);
      break;
  }
  return 0;
}
