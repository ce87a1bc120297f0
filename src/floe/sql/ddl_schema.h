#pragma once

// What CREATE TABLE and ALTER TABLE share: the Iceberg schema of a written column list and key,
// the transform of a PARTITIONED BY item, and WITH (...) options as a property map. Errors name
// the column, key or transform that is wrong.

#include <string>
#include <vector>

#include "floe/spec/schema.h"
#include "floe/spec/snapshot.h"
#include "floe/spec/transform.h"
#include "floe/sql/ast.h"
#include "floe/util/error.h"

namespace floe::sql {

// The columns as an Iceberg schema with provisional field ids (the catalog renumbers them). The key
// is the inline PRIMARY KEY columns and the table-level list, which must not both be given; its
// columns become required identifier fields.
Result<SchemaPtr> ToIcebergSchema(const std::vector<ColumnDef>& columns,
                                  const std::vector<std::string>& table_key);

// The key of a column list: the table-level one, or the columns marked PRIMARY KEY inline.
Result<std::vector<std::string>> PrimaryKeyOf(const std::vector<ColumnDef>& columns,
                                              const std::vector<std::string>& table_key);

// bucket(16, id) -> Transform::Bucket(16); an identity column has an empty transform name.
Result<Transform> ToTransform(const PartitionField& field);

// WITH options as a map; a key given twice is an error naming it.
Result<StringMap> ToStringMap(const Options& options, std::string_view what);

}  // namespace floe::sql
