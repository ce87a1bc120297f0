#pragma once

// Which column metrics a table's writers keep (Iceberg's MetricsConfig), from table properties:
//   write.metadata.metrics.default                  mode of every column (default truncate(16))
//   write.metadata.metrics.column.<name>            mode of one column (its full dotted name)
//   write.metadata.metrics.max-inferred-column-defaults (100)
//                                                   without an explicit default, only the first
//                                                   this-many top-level columns (with everything
//                                                   nested in them) get truncate(16), the rest none
// Modes are none, counts, truncate(N) and full. Columns of the table's sort order with an order-
// preserving transform get at least truncate(16) unless a column property says otherwise.
//
// What can go wrong: a bad mode, a negative limit, or a column property naming no column are
// kInvalidArgument naming the property (Iceberg Java logs and ignores bad modes; floe refuses
// them so that a typo does not silently drop metrics).

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "floe/format/parquet/writer/writer_options.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/util/error.h"

namespace floe::table {

using parquet::MetricsMode;

class MetricsConfig {
 public:
  // truncate(16) for every column.
  MetricsConfig() = default;
  static Result<MetricsConfig> Make(const std::map<std::string, std::string>& properties,
                                    const Schema& schema, const SortOrder* sort_order = nullptr);
  // For position delete files: file_path and pos always full, other columns as this config says.
  MetricsConfig ForPositionDeletes() const;

  MetricsMode ModeFor(int32_t field_id) const;
  const MetricsMode& default_mode() const { return default_mode_; }
  // Sets the Parquet writer's default and per-field modes to this config.
  void ApplyTo(parquet::WriterOptions& options) const;

 private:
  MetricsMode default_mode_;
  std::unordered_map<int32_t, MetricsMode> column_modes_;
};

}  // namespace floe::table
