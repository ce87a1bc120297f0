#pragma once

// What CREATE TABLE and ALTER TABLE share: the Iceberg schema of a written column list and key,
// the transform of a PARTITIONED BY item, and WITH (...) options as a property map. Errors name
// the column, key or transform that is wrong.

#include <string>
#include <vector>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/snapshot.h"
#include "floe/spec/transform.h"
#include "floe/sql/syntax/ast.h"
#include "floe/util/error.h"

namespace floe::sql {

// The columns as an Iceberg schema with provisional field ids (the catalog renumbers them). The
// key's columns (PrimaryKeyOf) become required identifier fields.
Result<SchemaPtr> ToIcebergSchema(const std::vector<ColumnDef>& columns,
                                  const std::vector<std::string>& table_key);

// The key of a column list: the table-level one, else the columns marked PRIMARY KEY inline.
std::vector<std::string> PrimaryKeyOf(const std::vector<ColumnDef>& columns,
                                      const std::vector<std::string>& table_key);

// bucket(16, id) -> Transform::Bucket(16); an identity column has an empty transform name.
Result<Transform> ToTransform(const PartitionField& field);

// The PARTITIONED BY list as a spec over `schema`. Fields are named as Iceberg names them for a
// new table: the column for identity, else column_bucket, _trunc, _year, _month, _day, _hour.
Result<PartitionSpecPtr> ToPartitionSpec(const Schema& schema,
                                         const std::vector<PartitionField>& fields);
std::string DefaultPartitionName(std::string_view column, const Transform& transform);

// A spec field written back as a PARTITIONED BY item: kUnsupported for void and unknown
// transforms (which DDL cannot write) and for a field whose source column is gone.
Result<PartitionField> ToPartitionItem(const Schema& schema, const floe::PartitionField& field);

// A schema's columns as Flink column definitions (types via ToFlinkType, docs as comments), and
// its identifier fields as the key. Errors: Iceberg types Flink has no type for.
Result<std::vector<ColumnDef>> ToColumnDefs(const Schema& schema);
std::vector<std::string> PrimaryKeyNames(const Schema& schema);

// WITH options as a map; a key given twice is an error naming it.
Result<StringMap> ToStringMap(const Options& options, std::string_view what);

}  // namespace floe::sql
