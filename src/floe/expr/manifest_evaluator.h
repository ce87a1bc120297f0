#pragma once

// Manifest pruning by partition field summaries (manifest list "partitions"; the reference
// implementation's ManifestEvaluator): the row filter is projected inclusively through the
// manifest's partition spec and tested against each partition field's summary.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/expr/expression.h"

namespace floe {
class PartitionSpec;
}

namespace floe::expr {

// One partition field's summary over a manifest, as the manifest list stores it. Bounds exclude
// nulls and NaN and are in binary single-value form of the partition field's result type.
struct PartitionFieldSummary {
  bool contains_null = true;
  std::optional<bool> contains_nan;  // absent in older manifests: unknown
  std::optional<std::string> lower_bound;
  std::optional<std::string> upper_bound;
};

// Says whether a manifest may contain rows matching a filter. What can go wrong: a filter that
// does not bind, summaries whose count differs from the spec's fields, undecodable bounds.
class ManifestEvaluator {
 public:
  // filter is unbound or bound to schema; the spec must belong to the same table.
  static Result<ManifestEvaluator> Make(const ExprPtr& filter, const Schema& schema,
                                        const PartitionSpec& spec, bool case_sensitive = true);

  // summaries: one per partition field of the spec, in order.
  Result<bool> MightMatch(std::span<const PartitionFieldSummary> summaries) const;

  // The filter projected onto the partition tuple.
  const ExprPtr& partition_filter() const { return partition_filter_; }

 private:
  ManifestEvaluator(ExprPtr partition_filter, std::vector<int32_t> field_ids)
      : partition_filter_(std::move(partition_filter)), field_ids_(std::move(field_ids)) {}

  ExprPtr partition_filter_;
  std::vector<int32_t> field_ids_;  // partition field id at each tuple position
};

}  // namespace floe::expr
