#pragma once

// Internal to the Parquet writer: a chunk's page index as its pages are cut. The column index has
// each page's bounds (byte arrays truncated to kMaxIndexBound bytes), null and NaN counts and the
// order of the bounds across pages; the offset index each page's location and first row. A page of
// NaNs only has no bounds to give, and neither has a byte array whose truncated upper bound cannot
// be raised: then the chunk gets no column index.

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/writer/bounds_internal.h"
#include "floe/format/parquet/writer/column_writer_internal.h"
#include "floe/format/parquet/writer/statistics_internal.h"

namespace floe::parquet {

template <typename P>
class ColumnIndexBuilder {
 public:
  explicit ColumnIndexBuilder(const LeafSpec& spec)
      : order_(spec),
        truncate_(std::is_same_v<P, ByteArray> && spec.physical_type == PhysicalType::kByteArray),
        utf8_(spec.kind == TypeKind::kString || spec.kind == TypeKind::kLargeString) {}

  // The page's entry in the column index.
  void AddPage(const ColumnStats<P>& page) {
    bool null_page = !page.has_minmax && page.values == 0 && page.nans == 0;
    if (!page.has_minmax && !null_page) valid_ = false;
    column_index_.null_pages.push_back(null_page);
    column_index_.null_counts.push_back(page.nulls);
    if (std::is_floating_point_v<P>) column_index_.nan_counts.push_back(page.nans);
    if (null_page) {
      column_index_.min_values.emplace_back();
      column_index_.max_values.emplace_back();
    } else if (page.has_minmax) {
      auto [min, max] = EncodeBounds(page);
      if (truncate_ && (min.size() > kMaxIndexBound || max.size() > kMaxIndexBound)) {
        min = TruncateLowerBound(min, kMaxIndexBound, utf8_);
        auto upper = TruncateUpperBound(max, kMaxIndexBound, utf8_);
        if (!upper) valid_ = false;
        max = upper.value_or(max);
      }
      column_index_.min_values.push_back(std::move(min));
      column_index_.max_values.push_back(std::move(max));
    }
    ColumnStats<P> bounds;
    bounds.has_minmax = page.has_minmax;
    bounds.min = page.min;
    bounds.max = page.max;
    page_bounds_.push_back(std::move(bounds));
  }

  // The page's location, its offset counted from the chunk's first data page.
  void AddLocation(const PageLocation& location) {
    offset_index_.page_locations.push_back(location);
  }

  // Hands the chunk's indexes to `indexes`, the page offsets made absolute by the offset of the
  // first data page in the file, and resets for the next chunk.
  void Finish(int64_t data_page_offset, ChunkIndexes& indexes) {
    for (PageLocation& location : offset_index_.page_locations) {
      location.offset += data_page_offset;
    }
    indexes.offset_index = std::move(offset_index_);
    indexes.column_index.reset();
    if (valid_) {
      column_index_.boundary_order = BoundaryOrderOfPages();
      indexes.column_index = std::move(column_index_);
    }
    column_index_ = ColumnIndex{};
    valid_ = true;
    offset_index_ = OffsetIndex{};
    page_bounds_.clear();
  }

 private:
  static constexpr int32_t kMaxIndexBound = 64;

  // The order of the pages' bounds, for readers that binary-search the column index.
  BoundaryOrder BoundaryOrderOfPages() const {
    bool ascending = true, descending = true;
    const typename ColumnStats<P>::Stored* last_min = nullptr;
    const typename ColumnStats<P>::Stored* last_max = nullptr;
    for (const ColumnStats<P>& page : page_bounds_) {
      if (!page.has_minmax) continue;
      if (last_min != nullptr) {
        if (order_.Less(page.min, *last_min) || order_.Less(page.max, *last_max)) {
          ascending = false;
        }
        if (order_.Less(*last_min, page.min) || order_.Less(*last_max, page.max)) {
          descending = false;
        }
      }
      last_min = &page.min;
      last_max = &page.max;
    }
    if (ascending) return BoundaryOrder::kAscending;
    if (descending) return BoundaryOrder::kDescending;
    return BoundaryOrder::kUnordered;
  }

  ValueOrder<P> order_;
  bool truncate_, utf8_;
  ColumnIndex column_index_;
  bool valid_ = true;
  OffsetIndex offset_index_;
  std::vector<ColumnStats<P>> page_bounds_;
};

}  // namespace floe::parquet
