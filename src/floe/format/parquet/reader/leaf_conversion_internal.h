#pragma once

// Turns a LeafConversion (schema_mapping.h) into the types that read a leaf: the physical type P
// the chunk reader produces, the builder's C type T and builder B, and the function from one to
// the other. Both column paths of the batch reader (flat columns decoded straight into builders,
// nested ones through levels) dispatch through VisitConversion once per column chunk, so the
// per-value work is compiled for each pair of types. Out-of-range values wrap as the Parquet
// annotation says (narrow integers are stored sign- or zero-extended in INT32).

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "floe/batch/builder.h"
#include "floe/format/parquet/encoding/value_decoder.h"
#include "floe/format/parquet/reader/schema_mapping.h"
#include "floe/util/error.h"
#include "floe/util/int128.h"

namespace floe::parquet {

// The conversion of values whose physical and builder types are the same: lets readers decode
// straight into the builder's memory.
struct Identity {
  template <typename V>
  V operator()(V v) const {
    return v;
  }
};

inline __int128 BigEndianToInt128(std::string_view bytes) {
  if (bytes.empty()) return 0;
  if (bytes.size() <= 16) {
    // Sign-extend into 16 bytes, then two byte swaps instead of a loop over the bytes.
    unsigned char wide[16];
    std::memset(wide, (static_cast<uint8_t>(bytes[0]) & 0x80) ? 0xff : 0, 16);
    std::memcpy(wide + 16 - bytes.size(), bytes.data(), bytes.size());
    uint64_t high, low;
    std::memcpy(&high, wide, 8);
    std::memcpy(&low, wide + 8, 8);
    return static_cast<__int128>(static_cast<unsigned __int128>(std::byteswap(high)) << 64 |
                                 std::byteswap(low));
  }
  unsigned __int128 value =
      (static_cast<uint8_t>(bytes[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  // Wider values than 16 bytes only carry sign extension for precisions up to 38.
  for (size_t i = bytes.size() > 16 ? bytes.size() - 16 : 0; i < bytes.size(); ++i) {
    value = (value << 8) | static_cast<uint8_t>(bytes[i]);
  }
  return static_cast<__int128>(value);
}

inline constexpr int64_t kJulianEpochDay = 2440588;  // the Julian day number of 1970-01-01
inline constexpr int64_t kNanosPerDay = 86400LL * 1000 * 1000 * 1000;

inline __int128 Int96Nanos(const Int96& v) {
  const int64_t nanos_of_day =
      static_cast<int64_t>(static_cast<uint64_t>(v.words[0]) | (uint64_t{v.words[1]} << 32));
  const int64_t julian_day = static_cast<int32_t>(v.words[2]);
  return static_cast<__int128>(julian_day - kJulianEpochDay) * kNanosPerDay + nanos_of_day;
}

// Calls one of the visitor's members for the conversion:
//   v.template Fixed<P, T, B>(convert)  fixed-width builder values
//   v.Bool()                            BOOLEAN to BooleanBuilder
//   v.template Bytes<B>()               byte arrays copied into StringBuilder or
//                                       FixedSizeBinaryBuilder
//   v.Null()                            UNKNOWN leaves: every row null
template <typename Visitor>
Status VisitConversion(LeafConversion conversion, Visitor&& v) {
  using C = LeafConversion;
  auto wrap_millis = [](int64_t x) {
    return static_cast<int64_t>(static_cast<uint64_t>(x) * 1000);
  };
  switch (conversion) {
    case C::kNull:
      return v.Null();
    case C::kBool:
      return v.Bool();
    case C::kInt32:
      return v.template Fixed<int32_t, int32_t, NumericBuilder<int32_t>>(Identity{});
    case C::kInt32ToInt8:
      return v.template Fixed<int32_t, int8_t, Int8Builder>(
          [](int32_t x) { return static_cast<int8_t>(x); });
    case C::kInt32ToInt16:
      return v.template Fixed<int32_t, int16_t, Int16Builder>(
          [](int32_t x) { return static_cast<int16_t>(x); });
    case C::kInt32ToUInt8:
      return v.template Fixed<int32_t, uint8_t, UInt8Builder>(
          [](int32_t x) { return static_cast<uint8_t>(x); });
    case C::kInt32ToUInt16:
      return v.template Fixed<int32_t, uint16_t, UInt16Builder>(
          [](int32_t x) { return static_cast<uint16_t>(x); });
    case C::kInt32ToUInt32:
      return v.template Fixed<int32_t, uint32_t, UInt32Builder>(
          [](int32_t x) { return static_cast<uint32_t>(x); });
    case C::kInt32TimeMillis:
      return v.template Fixed<int32_t, int64_t, Int64Builder>(
          [](int32_t x) { return int64_t{x} * 1000; });
    case C::kInt32Decimal:
      return v.template Fixed<int32_t, __int128, Decimal128Builder>(
          [](int32_t x) { return static_cast<__int128>(x); });
    case C::kInt64:
      return v.template Fixed<int64_t, int64_t, Int64Builder>(Identity{});
    case C::kInt64ToUInt64:
      return v.template Fixed<int64_t, uint64_t, UInt64Builder>(
          [](int64_t x) { return static_cast<uint64_t>(x); });
    case C::kInt64Decimal:
      return v.template Fixed<int64_t, __int128, Decimal128Builder>(
          [](int64_t x) { return static_cast<__int128>(x); });
    case C::kInt64Millis:
      return v.template Fixed<int64_t, int64_t, Int64Builder>(wrap_millis);
    case C::kInt96ToNanos:
      return v.template Fixed<Int96, int64_t, Int64Builder>(
          [](const Int96& x) { return static_cast<int64_t>(Int96Nanos(x)); });
    case C::kInt96ToMicros:
      return v.template Fixed<Int96, int64_t, Int64Builder>(
          [](const Int96& x) { return static_cast<int64_t>(FloorDiv128(Int96Nanos(x), 1000)); });
    case C::kFloat:
      return v.template Fixed<float, float, Float32Builder>(Identity{});
    case C::kDouble:
      return v.template Fixed<double, double, Float64Builder>(Identity{});
    case C::kBytes:
      return v.template Bytes<StringBuilder>();
    case C::kFixed:
      return v.template Bytes<FixedSizeBinaryBuilder>();
    case C::kBytesDecimal:
      return v.template Fixed<ByteArray, __int128, Decimal128Builder>(
          [](ByteArray x) { return BigEndianToInt128(x); });
    case C::kFloat16:
      return v.template Fixed<ByteArray, uint16_t, Float16Builder>([](ByteArray x) -> uint16_t {
        if (x.size() != 2) return 0;
        return static_cast<uint16_t>(static_cast<uint8_t>(x[0]) |
                                     (static_cast<uint8_t>(x[1]) << 8));
      });
  }
  return CorruptData("unknown leaf conversion {}", static_cast<int>(conversion));
}

}  // namespace floe::parquet
