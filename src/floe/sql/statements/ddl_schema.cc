#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/types_internal.h"

namespace floe::sql {

std::vector<std::string> PrimaryKeyOf(const std::vector<ColumnDef>& columns,
                                      const std::vector<std::string>& table_key) {
  // The parser lists inline keys in the table-level key too; a tree built by hand may not.
  if (!table_key.empty()) return table_key;
  std::vector<std::string> key;
  for (const ColumnDef& column : columns) {
    if (column.primary_key) key.push_back(column.name);
  }
  return key;
}

Result<SchemaPtr> ToIcebergSchema(const std::vector<ColumnDef>& columns,
                                  const std::vector<std::string>& table_key) {
  if (columns.empty()) return InvalidArgument("a table needs at least one column");
  for (const ColumnDef& column : columns) {
    if (column.metadata) {
      return Unsupported("column '{}': metadata columns are not supported in Iceberg tables",
                         column.name);
    }
  }
  for (std::size_t i = 0; i < columns.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (columns[i].name == columns[j].name) {
        return InvalidArgument("column '{}' is defined twice", columns[i].name);
      }
    }
  }
  std::vector<std::string> key = PrimaryKeyOf(columns, table_key);
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

std::string DefaultPartitionName(std::string_view column, const Transform& transform) {
  switch (transform.kind()) {
    case Transform::Kind::kBucket:
      return fmt::format("{}_bucket", column);
    case Transform::Kind::kTruncate:
      return fmt::format("{}_trunc", column);
    case Transform::Kind::kYear:
      return fmt::format("{}_year", column);
    case Transform::Kind::kMonth:
      return fmt::format("{}_month", column);
    case Transform::Kind::kDay:
      return fmt::format("{}_day", column);
    case Transform::Kind::kHour:
      return fmt::format("{}_hour", column);
    default:
      return std::string(column);
  }
}

Result<PartitionSpecPtr> ToPartitionSpec(const Schema& schema,
                                         const std::vector<PartitionField>& fields) {
  std::vector<floe::PartitionField> spec_fields;
  int32_t next_id = PartitionSpec::kFirstFieldId;
  for (const PartitionField& field : fields) {
    const NestedField* column = schema.FindField(field.column);
    if (column == nullptr) {
      return InvalidArgument("partition column '{}' is not a column of the table", field.column);
    }
    FLOE_ASSIGN_OR_RETURN(Transform transform, ToTransform(field));
    if (!transform.CanTransform(*column->type)) {
      return InvalidArgument("partition transform {} cannot be applied to column '{}' of type {}",
                             transform.ToString(), field.column, column->type->ToString());
    }
    spec_fields.push_back(
        floe::PartitionField{.source_ids = {column->id},
                             .field_id = next_id++,
                             .name = DefaultPartitionName(field.column, transform),
                             .transform = transform});
  }
  auto spec = PartitionSpec::Make(schema, PartitionSpec::kInitialSpecId, std::move(spec_fields));
  if (!spec) return std::unexpected(std::move(spec.error()).AddContext("PARTITIONED BY"));
  return spec;
}

Result<PartitionField> ToPartitionItem(const Schema& schema, const floe::PartitionField& field) {
  std::optional<std::string> column = schema.FindColumnName(field.source_id());
  if (!column.has_value()) {
    return Unsupported("partition field '{}' has no source column in the current schema",
                       field.name);
  }
  PartitionField item{.column = *column};
  switch (field.transform.kind()) {
    case Transform::Kind::kIdentity:
      break;
    case Transform::Kind::kBucket:
      item.transform = "bucket";
      item.argument = field.transform.param();
      break;
    case Transform::Kind::kTruncate:
      item.transform = "truncate";
      item.argument = field.transform.param();
      break;
    case Transform::Kind::kYear:
      item.transform = "years";
      break;
    case Transform::Kind::kMonth:
      item.transform = "months";
      break;
    case Transform::Kind::kDay:
      item.transform = "days";
      break;
    case Transform::Kind::kHour:
      item.transform = "hours";
      break;
    default:
      return Unsupported(
          "partition field '{}' uses transform {}, which PARTITIONED BY cannot "
          "express",
          field.name, field.transform.ToString());
  }
  return item;
}

Result<std::vector<ColumnDef>> ToColumnDefs(const Schema& schema) {
  std::vector<ColumnDef> columns;
  for (const NestedField& field : schema.fields()) {
    auto type = ToFlinkType(*field.type, field.required);
    if (!type) {
      return std::unexpected(
          std::move(type.error()).AddContext(fmt::format("column '{}'", field.name)));
    }
    ColumnDef column{.name = field.name, .type = std::move(*type)};
    if (!field.doc.empty()) column.comment = field.doc;
    columns.push_back(std::move(column));
  }
  return columns;
}

std::vector<std::string> PrimaryKeyNames(const Schema& schema) {
  std::vector<std::string> names;
  for (int32_t id : schema.identifier_field_ids()) {
    names.push_back(schema.FindColumnName(id).value_or(std::to_string(id)));
  }
  return names;
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
