#pragma once

// The requirements that make a list of updates safe to apply to the table's current metadata when
// they were computed on base: the REST catalog's rule set (Iceberg's UpdateRequirements). The table
// uuid always; each ref a SetSnapshotRef moves unchanged; the schema, spec and sort order ids that
// new schemas, specs and orders were numbered after or replace.

#include <span>
#include <vector>

#include "floe/catalog/table_update.h"
#include "floe/spec/table_metadata.h"

namespace floe::table {

std::vector<catalog::TableRequirement> RequirementsFor(
    const TableMetadata& base, std::span<const catalog::TableUpdate> updates);

}  // namespace floe::table
