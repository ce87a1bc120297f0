#pragma once

// The Glue table an Iceberg table is, laid out as Iceberg's GlueCatalog writes it, so that Athena,
// EMR and other engines reading Glue see the same table:
//   TableType                    EXTERNAL_TABLE
//   Parameters                   table_type=ICEBERG, metadata_location, previous_metadata_location
//                                (absent for a new table), kept beside what others stored
//   Description                  the table's `comment` property, when set
//   StorageDescriptor.Location   the table's location
//   StorageDescriptor.Columns    the current schema's columns (Name, Type in Hive's type syntax,
//                                Comment = doc, Parameters iceberg.field.id / .optional /
//                                .current=true), then columns only older schemas have (current
//                                false)

#include <string>

#include "floe/spec/table_metadata.h"
#include "floe/spec/type.h"
#include "floe/util/json.h"

namespace floe::catalog::glue {

inline constexpr std::string_view kTableTypeParameter = "table_type";
inline constexpr std::string_view kIcebergTableType = "ICEBERG";
inline constexpr std::string_view kMetadataLocationParameter = "metadata_location";
inline constexpr std::string_view kPreviousMetadataLocationParameter = "previous_metadata_location";

// The TableInput for table name at metadata_location: existing (a GetTable's input fields, or an
// empty object for a new table) with the fields above set.
Json IcebergTableInput(const Json& existing, const std::string& name, const TableMetadata& metadata,
                       const std::string& metadata_location,
                       const std::string& previous_metadata_location);

// The Hive type string Glue shows for an Iceberg type ("bigint", "array<string>",
// "struct<a:int,b:string>", "decimal(9,2)").
std::string GlueTypeString(const Type& type);

}  // namespace floe::catalog::glue
