#include <cmath>

#include "floe/format/parquet/writer/bounds_internal.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/format/parquet/writer/statistics_internal.h"

namespace floe::parquet {

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

bool DecimalBytesLess(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return a.size() < b.size();
  auto a0 = static_cast<signed char>(a[0]), b0 = static_cast<signed char>(b[0]);
  if (a0 != b0) return a0 < b0;
  return a.substr(1) < b.substr(1);
}

template <typename P>
void FillStatsMetrics(const LeafSpec& spec, const ColumnStats<P>& file, ColumnMetrics& m) {
  if (spec.metrics.kind == MetricsMode::Kind::kNone) return;
  m.value_count = file.values + file.nulls + file.nans;
  m.null_count = file.nulls;
  if (std::is_floating_point_v<P>) m.nan_count = file.nans;
  if (spec.metrics.kind == MetricsMode::Kind::kCounts || !file.has_minmax) return;
  std::string lower = EncodeStat<P>(file.min), upper = EncodeStat<P>(file.max);
  bool truncatable = std::is_same_v<P, ByteArray> && spec.physical_type == PhysicalType::kByteArray;
  if (spec.metrics.kind == MetricsMode::Kind::kTruncate && truncatable) {
    bool utf8 = spec.kind == TypeKind::kString || spec.kind == TypeKind::kLargeString;
    m.lower_bound = TruncateLowerBound(lower, spec.metrics.truncate_length, utf8);
    m.upper_bound = TruncateUpperBound(upper, spec.metrics.truncate_length, utf8);
  } else {
    m.lower_bound = std::move(lower);
    m.upper_bound = std::move(upper);
  }
}

template void FillStatsMetrics(const LeafSpec&, const ColumnStats<bool>&, ColumnMetrics&);
template void FillStatsMetrics(const LeafSpec&, const ColumnStats<int32_t>&, ColumnMetrics&);
template void FillStatsMetrics(const LeafSpec&, const ColumnStats<int64_t>&, ColumnMetrics&);
template void FillStatsMetrics(const LeafSpec&, const ColumnStats<float>&, ColumnMetrics&);
template void FillStatsMetrics(const LeafSpec&, const ColumnStats<double>&, ColumnMetrics&);
template void FillStatsMetrics(const LeafSpec&, const ColumnStats<ByteArray>&, ColumnMetrics&);

}  // namespace floe::parquet
