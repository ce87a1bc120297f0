#pragma once

// Internal to the Parquet writer: how a leaf's values compare for statistics (signed or unsigned
// integers, FLOAT16 and big-endian decimals in fixed-length byte arrays), the bounds and counts of
// a page, a chunk or the whole file, and their encoded forms: the chunk's Statistics and the file's
// ColumnMetrics.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "floe/format/parquet/encoding/value_decoder.h"
#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/writer/column_writer_internal.h"

namespace floe::parquet {

struct ColumnMetrics;

// The value of an IEEE half-precision float.
float HalfToFloat(uint16_t h);
// Big-endian two's complement order: the first byte signed, the rest unsigned.
bool DecimalBytesLess(std::string_view a, std::string_view b);

// How a page holds values of physical type P (byte arrays: as owned strings).
template <typename P>
struct Physical {
  using Stored = P;
};
template <>
struct Physical<ByteArray> {
  using Stored = std::string;
};

template <typename P>
class ValueOrder {
 public:
  explicit ValueOrder(const LeafSpec& spec)
      : decimal_bytes_(spec.decimal_bytes),
        float16_(spec.float16),
        unsigned_order_(spec.unsigned_order) {}

  template <typename A, typename B>
  bool Less(const A& a, const B& b) const {
    if constexpr (std::is_same_v<P, ByteArray>) {
      if (decimal_bytes_) return DecimalBytesLess(a, b);
      if (float16_) {
        uint16_t ha, hb;
        std::memcpy(&ha, a.data(), 2);
        std::memcpy(&hb, b.data(), 2);
        return HalfToFloat(ha) < HalfToFloat(hb);
      }
      return std::string_view(a) < std::string_view(b);
    } else if constexpr (std::is_integral_v<P> && !std::is_same_v<P, bool>) {
      if (unsigned_order_) {
        return static_cast<std::make_unsigned_t<P>>(a) < static_cast<std::make_unsigned_t<P>>(b);
      }
      return a < b;
    } else {
      return a < b;
    }
  }

 private:
  bool decimal_bytes_, float16_, unsigned_order_;
};

// Bounds (of values neither null nor NaN) and counts.
template <typename P>
struct ColumnStats {
  using Stored = typename Physical<P>::Stored;
  bool has_minmax = false;
  Stored min{}, max{};
  int64_t nulls = 0, nans = 0, values = 0;

  void UpdateBounds(P value, const ValueOrder<P>& order) {
    if (!has_minmax) {
      min = Stored(value);
      max = Stored(value);
      has_minmax = true;
    } else if constexpr (std::is_same_v<P, ByteArray>) {
      if (order.Less(value, min)) min.assign(value);
      if (order.Less(max, value)) max.assign(value);
    } else {
      if (order.Less(value, min)) min = value;
      if (order.Less(max, value)) max = value;
    }
  }

  void Merge(const ColumnStats& other, const ValueOrder<P>& order) {
    nulls += other.nulls;
    nans += other.nans;
    values += other.values;
    if (!other.has_minmax) return;
    if (!has_minmax || order.Less(other.min, min)) min = other.min;
    if (!has_minmax || order.Less(max, other.max)) max = other.max;
    has_minmax = true;
  }
};

// A value's PLAIN bytes, as statistics and indexes store it.
template <typename P>
std::string EncodeStat(const typename Physical<P>::Stored& v) {
  if constexpr (std::is_same_v<P, ByteArray>) {
    return v;
  } else {
    using Stored = typename Physical<P>::Stored;
    Stored value = v;
    std::string out(sizeof(Stored), '\0');
    std::memcpy(out.data(), &value, sizeof(Stored));
    return out;
  }
}

// The encoded min and max of stats.
template <typename P>
std::pair<std::string, std::string> EncodeBounds(const ColumnStats<P>& stats) {
  typename Physical<P>::Stored min = stats.min, max = stats.max;
  if constexpr (std::is_floating_point_v<P>) {
    // Zero bounds are written as -0 (min) and +0 (max) so that either zero is inside.
    if (min == 0) min = -P{0};
    if (max == 0) max = P{0};
  }
  return {EncodeStat<P>(min), EncodeStat<P>(max)};
}

// A chunk's statistics in its column metadata.
template <typename P>
Statistics ChunkStatistics(const ColumnStats<P>& chunk) {
  Statistics stats;
  stats.null_count = chunk.nulls;
  if (std::is_floating_point_v<P>) stats.nan_count = chunk.nans;
  if (chunk.has_minmax) {
    auto [min, max] = EncodeBounds(chunk);
    stats.min_value = std::move(min);
    stats.max_value = std::move(max);
    stats.is_min_value_exact = true;
    stats.is_max_value_exact = true;
  }
  return stats;
}

// The counts and bounds of the file's metrics (m's identity and column_size are the caller's), as
// the leaf's metrics mode asks: none, counts, truncated or full bounds.
template <typename P>
void FillStatsMetrics(const LeafSpec& spec, const ColumnStats<P>& file, ColumnMetrics& m);

}  // namespace floe::parquet
