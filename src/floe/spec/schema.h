#pragma once

// A table schema: a struct of fields with ids unique across all nesting levels, a schema id, and
// the identifier fields that identify a row (the primary key of upserts). Immutable; shared as
// SchemaPtr. Fields are found by id, by full dotted name ("location.lat", list elements as
// "tags.element", map keys/values as "props.key"/"props.value") and, case-insensitively, for SQL.
//
// A schema may also carry aliases: other full names of its fields (as Iceberg Java keeps the column
// paths of a data file's own schema), looked up with FindFieldByAlias.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/spec/type.h"
#include "floe/util/error.h"

namespace floe {

class Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

class Schema {
 public:
  static constexpr int32_t kInitialSchemaId = 0;

  explicit Schema(std::vector<NestedField> fields, int32_t schema_id = kInitialSchemaId,
                  std::vector<int32_t> identifier_field_ids = {});
  // Builds and validates: field ids unique, names unique within each struct, identifier fields
  // present, required, primitive, not floating point and not nested inside a list or map or
  // optional struct (spec "Identifier Field IDs").
  static Result<SchemaPtr> Make(std::vector<NestedField> fields,
                                int32_t schema_id = kInitialSchemaId,
                                std::vector<int32_t> identifier_field_ids = {});

  int32_t schema_id() const { return schema_id_; }
  const std::shared_ptr<const StructType>& as_struct() const { return struct_; }
  std::span<const NestedField> fields() const { return struct_->fields(); }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }

  // Any field at any depth; nullptr when absent.
  const NestedField* FindField(int32_t id) const;
  const NestedField* FindField(std::string_view full_name, bool case_sensitive = true) const;
  // The full dotted name of a field id, or nullopt.
  std::optional<std::string> FindColumnName(int32_t id) const;
  // The id of the field's closest enclosing field (struct, list or map), or nullopt at top level.
  std::optional<int32_t> FindParentId(int32_t id) const;
  // The largest field id used anywhere (0 for an empty schema).
  int32_t highest_field_id() const { return highest_field_id_; }
  // Every field id in pre-order (parents before children).
  const std::vector<int32_t>& all_field_ids() const { return all_field_ids_; }

  std::string ToString() const;
  // Equal fields and identifier fields; the schema id is not compared.
  bool SameSchema(const Schema& other) const;

  // Projection: keeps the fields whose ids are listed, whole (with all their nested fields), and
  // the structs, lists and maps that lead to them, pruned to those paths. A map on such a path
  // keeps its key whole, and its value whole unless the selection is inside the value. Unknown ids
  // are ignored. Field order, schema id, aliases and the identifier fields that remain are kept.
  SchemaPtr Project(const std::vector<int32_t>& field_ids) const;
  // Projection by full dotted names ("location.lat", "tags.element"); kNotFound names the first
  // unknown column.
  Result<SchemaPtr> Select(const std::vector<std::string>& names, bool case_sensitive = true) const;

  // A copy with every field renumbered by next_id(), in Iceberg Java's order: all the fields of a
  // struct first, in order, then the nested fields of each of them in turn (a list's element, a
  // map's key then value, each followed by its own nested fields). So a new table's top-level
  // columns are 1..n. When `base` is given, a field whose full name exists in base keeps base's
  // id instead (for replacing a table), and next_id() is called only for the others. Identifier
  // field ids and aliases follow their fields.
  SchemaPtr AssignFreshIds(const std::function<int32_t()>& next_id, const Schema* base = nullptr,
                           int32_t schema_id = kInitialSchemaId) const;
  // Same, counting up from *last_column_id (which ends as the highest id assigned).
  SchemaPtr AssignFreshIds(int32_t* last_column_id, int32_t schema_id = kInitialSchemaId) const;

  // A copy of this schema carrying aliases: full names (dotted paths) mapping to field ids.
  SchemaPtr WithAliases(std::unordered_map<std::string, int32_t> aliases) const;
  const std::unordered_map<std::string, int32_t>& aliases() const { return aliases_; }
  std::optional<int32_t> AliasToId(std::string_view alias) const;
  std::optional<std::string> IdToAlias(int32_t id) const;
  const NestedField* FindFieldByAlias(std::string_view alias) const;

 private:
  void Index();

  int32_t schema_id_;
  std::shared_ptr<const StructType> struct_;
  std::vector<int32_t> identifier_field_ids_;
  int32_t highest_field_id_ = 0;
  std::vector<int32_t> all_field_ids_;
  std::unordered_map<int32_t, const NestedField*> by_id_;
  std::unordered_map<int32_t, int32_t> parent_of_;
  std::unordered_map<std::string, int32_t> by_name_;
  std::unordered_map<std::string, int32_t> by_lower_name_;
  std::unordered_map<int32_t, std::string> name_of_;
  std::unordered_map<std::string, int32_t> aliases_;
  std::unordered_map<int32_t, std::string> id_to_alias_;
};

}  // namespace floe
