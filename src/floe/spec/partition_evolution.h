#pragma once

// The rules for changing a table's partition spec (spec "Partition Evolution"). Partition field
// ids name the partition tuple's fields in every manifest, so a field that keeps partitioning by
// the same source columns and transform keeps its id, in any spec of the table, and a new field
// gets an id above the table's last-partition-id. v1 tables, whose readers may assign ids by
// position, also never reorder or drop fields: a dropped field stays in place with the void
// transform, and new fields go at the end.
//
// EvolvePartitionSpec builds a spec that follows these rules from the fields wanted; the check
// function tells whether a spec made elsewhere (another engine, a REST request) follows them.
// Neither checks the spec against a schema: call PartitionSpec::Validate for that.

#include <cstdint>
#include <span>
#include <vector>

#include "floe/spec/partition_spec.h"
#include "floe/util/error.h"

namespace floe {

// What a table's partitioning is now.
struct PartitionHistory {
  int format_version = 2;
  // Every spec the table has, the current one included.
  std::span<const PartitionSpecPtr> specs;
  // The spec being evolved (the table's default spec).
  const PartitionSpec* current = nullptr;
  // The table's last-partition-id: the highest partition field id ever assigned.
  int32_t last_partition_id = PartitionSpec::kFirstFieldId - 1;
};

// A spec with id new_spec_id partitioning by `wanted` (their field ids are ignored), with field ids
// reused or assigned by the rules above. In v1 the current fields keep their places (renamed when
// wanted under a new name; void when no longer wanted) and a void field whose name a new field
// takes is renamed "<name>_<field id>", as the reference implementation does.
Result<PartitionSpecPtr> EvolvePartitionSpec(const PartitionHistory& history,
                                             std::vector<PartitionField> wanted,
                                             int32_t new_spec_id);

// Whether next is a valid successor of history.current; the error names the field and the rule.
Status CheckPartitionEvolution(const PartitionHistory& history, const PartitionSpec& next);

}  // namespace floe
