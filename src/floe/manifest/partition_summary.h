#pragma once

// Partition field summaries for a manifest list entry (spec "Manifest Lists", field_summary):
// per partition field, whether any file's value is null or NaN and the lower and upper bounds of
// the other values, in Appendix D bytes. Bounds follow Iceberg's order (-0.0 before +0.0, NaN
// never a bound). Errors: a tuple of the wrong size or with values of the wrong type.

#include <memory>
#include <optional>
#include <vector>

#include "floe/manifest/data_file.h"
#include "floe/spec/literal.h"
#include "floe/spec/type.h"
#include "floe/util/error.h"

namespace floe::manifest {

class PartitionSummary {
 public:
  explicit PartitionSummary(std::shared_ptr<const StructType> partition_type);

  Status Update(const std::vector<Literal>& partition);
  Result<std::vector<FieldSummary>> Summaries() const;

 private:
  struct Stats {
    bool contains_null = false;
    bool contains_nan = false;
    std::optional<Literal> lower;
    std::optional<Literal> upper;
  };
  std::shared_ptr<const StructType> type_;
  std::vector<Stats> stats_;
};

}  // namespace floe::manifest
