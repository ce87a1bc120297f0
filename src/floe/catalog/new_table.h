#pragma once

// The metadata of a new table, built as Iceberg builds it for create-table: columns renumbered
// 1..n in Iceberg's order, partition fields from 1000 and sort fields pointing at the new column
// ids (matched by column name), a random table uuid, format version from the `format-version`
// property (default 2; the property itself is not stored, as it is reserved). A relative location
// (and relative write.data.path, write.metadata.path, write.object-storage.path,
// write.folder-storage.path) is made absolute against the working directory, once, here.
//
// Errors: kInvalidArgument for a spec or order naming a column the schema lacks, a bad
// format-version, or an empty location.

#include <cstdint>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

inline constexpr int kDefaultFormatVersion = 2;

Result<TableMetadataPtr> NewTableMetadata(const CreateTableRequest& request, std::string location,
                                          int64_t now_ms);

}  // namespace floe::catalog
