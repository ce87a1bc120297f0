#include <fmt/format.h>

#include <set>

#include "floe/catalog/glue/glue_table_input_internal.h"
#include "floe/spec/schema.h"
#include "floe/spec/type.h"

namespace floe::catalog::glue {
namespace {

Json Column(const NestedField& field, bool current) {
  Json column = Json::MakeObject();
  column.Set("Name", field.name);
  column.Set("Type", GlueTypeString(*field.type));
  if (!field.doc.empty()) column.Set("Comment", field.doc);
  Json parameters = Json::MakeObject();
  parameters.Set("iceberg.field.id", std::to_string(field.id));
  parameters.Set("iceberg.field.optional", field.required ? "false" : "true");
  parameters.Set("iceberg.field.current", current ? "true" : "false");
  column.Set("Parameters", std::move(parameters));
  return column;
}

Json Columns(const TableMetadata& metadata) {
  Json columns = Json::MakeArray();
  std::set<std::string> names;
  for (const NestedField& field : metadata.current_schema()->fields()) {
    names.insert(field.name);
    columns.Push(Column(field, true));
  }
  for (const SchemaPtr& schema : metadata.schemas()) {
    for (const NestedField& field : schema->fields()) {
      if (names.insert(field.name).second) columns.Push(Column(field, false));
    }
  }
  return columns;
}

}  // namespace

std::string GlueTypeString(const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt:
      return "int";
    case TypeId::kLong:
      return "bigint";
    case TypeId::kFloat:
      return "float";
    case TypeId::kDouble:
      return "double";
    case TypeId::kDate:
      return "date";
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return "timestamp";
    case TypeId::kTime:
    case TypeId::kString:
    case TypeId::kUuid:
      return "string";
    case TypeId::kFixed:
    case TypeId::kBinary:
      return "binary";
    case TypeId::kDecimal: {
      const auto& decimal = static_cast<const PrimitiveType&>(type);
      return fmt::format("decimal({},{})", decimal.precision(), decimal.scale());
    }
    case TypeId::kStruct: {
      std::string out = "struct<";
      const auto& fields = static_cast<const StructType&>(type).fields();
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ',';
        out += fields[i].name + ":" + GlueTypeString(*fields[i].type);
      }
      return out + ">";
    }
    case TypeId::kList:
      return "array<" + GlueTypeString(*static_cast<const ListType&>(type).element().type) + ">";
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      return fmt::format("map<{},{}>", GlueTypeString(*map.key().type),
                         GlueTypeString(*map.value().type));
    }
    default:
      // Types Hive has no name for (variant, geometry, unknown): Iceberg's own name.
      return type.ToString();
  }
}

Json IcebergTableInput(const Json& existing, const std::string& name, const TableMetadata& metadata,
                       const std::string& metadata_location,
                       const std::string& previous_metadata_location) {
  Json input = existing.is_object() ? existing : Json::MakeObject();
  input.Set("Name", name);
  input.Set("TableType", "EXTERNAL_TABLE");
  Json parameters = Json::MakeObject();
  if (const Json* old = existing.Find("Parameters"); old != nullptr && old->is_object()) {
    parameters = *old;
  }
  parameters.Set(kTableTypeParameter, kIcebergTableType);
  parameters.Set(kMetadataLocationParameter, metadata_location);
  if (!previous_metadata_location.empty()) {
    parameters.Set(kPreviousMetadataLocationParameter, previous_metadata_location);
  }
  input.Set("Parameters", std::move(parameters));
  if (std::string_view comment = metadata.property("comment"); !comment.empty()) {
    input.Set("Description", comment);
  }
  Json storage = Json::MakeObject();
  if (const Json* old = existing.Find("StorageDescriptor"); old != nullptr && old->is_object()) {
    storage = *old;
  }
  storage.Set("Location", metadata.location());
  storage.Set("Columns", Columns(metadata));
  input.Set("StorageDescriptor", std::move(storage));
  return input;
}

}  // namespace floe::catalog::glue
