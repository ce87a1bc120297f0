#include "floe/sql/ddl_schema.h"

#include <algorithm>
#include <limits>

#include "floe/sql/types.h"

namespace floe::sql {

Result<std::vector<std::string>> PrimaryKeyOf(const std::vector<ColumnDef>& columns,
                                              const std::vector<std::string>& table_key) {
  std::vector<std::string> key;
  for (const ColumnDef& column : columns) {
    if (column.primary_key) key.push_back(column.name);
  }
  if (!key.empty() && !table_key.empty()) {
    return InvalidArgument(
        "a table has one primary key: it is given both inline (column '{}') "
        "and as PRIMARY KEY (...)",
        key.front());
  }
  if (key.size() > 1) {
    return InvalidArgument(
        "more than one column is marked PRIMARY KEY ('{}', '{}'): use PRIMARY KEY ({}, {}) NOT "
        "ENFORCED for a composite key",
        key[0], key[1], key[0], key[1]);
  }
  return key.empty() ? table_key : key;
}

Result<SchemaPtr> ToIcebergSchema(const std::vector<ColumnDef>& columns,
                                  const std::vector<std::string>& table_key) {
  if (columns.empty()) return InvalidArgument("a table needs at least one column");
  for (std::size_t i = 0; i < columns.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (columns[i].name == columns[j].name) {
        return InvalidArgument("column '{}' is defined twice", columns[i].name);
      }
    }
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<std::string> key, PrimaryKeyOf(columns, table_key));
  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, ToIcebergFields(columns, key));
  std::vector<int32_t> identifier_ids;
  for (const std::string& name : key) {
    auto it = std::ranges::find(fields, name, &NestedField::name);
    if (it == fields.end()) {
      return InvalidArgument("primary key column '{}' is not a column of the table", name);
    }
    if (std::ranges::find(identifier_ids, it->id) != identifier_ids.end()) {
      return InvalidArgument("primary key column '{}' is listed twice", name);
    }
    identifier_ids.push_back(it->id);
  }
  auto schema = Schema::Make(std::move(fields), Schema::kInitialSchemaId, identifier_ids);
  if (!schema) return std::unexpected(std::move(schema.error()).AddContext("primary key"));
  return schema;
}

Result<Transform> ToTransform(const PartitionField& field) {
  const std::string& name = field.transform;
  auto argument = [&]() -> Result<int32_t> {
    if (!field.argument.has_value()) {
      return InvalidArgument("{}({}) needs a number: {}(N, {})", name, field.column, name,
                             field.column);
    }
    if (*field.argument < 1 || *field.argument > std::numeric_limits<int32_t>::max()) {
      return InvalidArgument("{}({}, {}): the number must be 1 to {}", name, *field.argument,
                             field.column, std::numeric_limits<int32_t>::max());
    }
    return static_cast<int32_t>(*field.argument);
  };
  if (name != "bucket" && name != "truncate" && field.argument.has_value()) {
    return InvalidArgument("partition transform {} takes only a column, got {}({}, {})",
                           name.empty() ? "identity" : name, name, *field.argument, field.column);
  }
  if (name.empty()) return Transform::Identity();
  if (name == "bucket") {
    FLOE_ASSIGN_OR_RETURN(int32_t n, argument());
    return Transform::Bucket(n);
  }
  if (name == "truncate") {
    FLOE_ASSIGN_OR_RETURN(int32_t width, argument());
    return Transform::Truncate(width);
  }
  if (name == "years") return Transform::Year();
  if (name == "months") return Transform::Month();
  if (name == "days") return Transform::Day();
  if (name == "hours") return Transform::Hour();
  return InvalidArgument(
      "unknown partition transform '{}' on column '{}' (valid: a column, bucket(N, c), "
      "truncate(W, c), years(c), months(c), days(c), hours(c))",
      name, field.column);
}

Result<StringMap> ToStringMap(const Options& options, std::string_view what) {
  StringMap map;
  for (const auto& [key, value] : options) {
    if (!map.emplace(key, value).second) {
      return InvalidArgument("{} option '{}' is given twice", what, key);
    }
  }
  return map;
}

}  // namespace floe::sql
