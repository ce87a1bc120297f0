#pragma once

// The updates that replace a table's definition while keeping its history (Iceberg's
// replace-table transactions, e.g. CREATE OR REPLACE TABLE): the replacement's schema takes the
// base's field ids for columns of the same name and fresh ids above last-column-id for the
// others; its partition spec and sort order are re-pointed at those ids (partition field ids
// follow the evolution rules); its properties are set over the base's; the main branch is removed
// so that the table has no current snapshot until the transaction's changes add one.
// Errors: a spec or order naming columns the replacement schema lacks (kInvalidArgument).

#include <vector>

#include "floe/catalog/table_update.h"
#include "floe/spec/table_metadata.h"

namespace floe::table {

Result<std::vector<catalog::TableUpdate>> ReplacementUpdates(const TableMetadata& base,
                                                             const TableMetadata& replacement);

}  // namespace floe::table
