#pragma once

// Schema evolution (spec "Schema Evolution"): a builder of changes over a table's current schema,
// applied all at once into a new schema and a new last-column-id.
//
// Changes apply in the order they are called, each to the schema as the earlier ones left it, so a
// column renamed from "a" to "b" is "b" for later calls. Columns are named by full dotted names
// ("location.lat", "points.element.x"). The first invalid change is remembered and later ones are
// skipped; Apply() returns it. Invalid changes: unknown columns, name clashes within a struct, type
// changes other than the spec's promotions, required columns added without an initial default,
// defaults before format version 3 or not matching their type, moves relative to a column of
// another struct, deleting or renaming a list element or map key/value, deleting (part of) an
// identifier field, identifier fields that break the spec's rules.
//
//   SchemaUpdate update(table_schema, last_column_id, /*format_version=*/2);
//   update.AddColumn("", "region", types::String()).RenameColumn("id", "user_id");
//   FLOE_ASSIGN_OR_RETURN(auto applied, update.Apply(next_schema_id));

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/spec/schema.h"
#include "floe/spec/type.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

// Whether a column of type `from` may become `to` in the given format version: int -> long,
// float -> double, decimal(P, S) -> decimal(P', S) with P' > P, and from v3 date -> timestamp or
// timestamp_ns and unknown -> any type. Equal types are allowed (no change). The target type must
// exist in that format version.
bool IsPromotionAllowed(const Type& from, const Type& to, int format_version);

class SchemaUpdate {
 public:
  struct Applied {
    SchemaPtr schema;
    int32_t last_column_id;
  };

  // `last_column_id` is the table's (never reused, even for deleted columns); new columns get ids
  // above it.
  SchemaUpdate(SchemaPtr base, int32_t last_column_id, int format_version);

  // Name lookups ignore case (and name clashes are checked ignoring case).
  SchemaUpdate& CaseInsensitive();
  // Allows changes that make existing data unreadable: adding a required column without a
  // default, and RequireColumn.
  SchemaUpdate& AllowIncompatibleChanges();
  // The ids of columns that the table's partition fields use as sources. Promoting such a date
  // column to a timestamp would change its partition values, so that is refused (spec "Schema
  // Evolution"); the table layer passes the ids of all its partition specs.
  SchemaUpdate& SetPartitionSourceIds(std::vector<int32_t> ids);

  // Adds a column to the struct named `parent` ("" for the top level; a list or map there means
  // its element or value struct). Ids are assigned to the column and then to its nested fields,
  // as Schema::AssignFreshIds does. `default_value` (JSON single-value form, format version 3)
  // becomes both initial-default and write-default; a struct's default may only be {}.
  SchemaUpdate& AddColumn(std::string_view parent, std::string name, TypePtr type,
                          std::string doc = "", std::optional<Json> default_value = std::nullopt);
  // A required column needs a non-null default (unless incompatible changes are allowed).
  SchemaUpdate& AddRequiredColumn(std::string_view parent, std::string name, TypePtr type,
                                  std::optional<Json> default_value, std::string doc = "");
  SchemaUpdate& DeleteColumn(std::string_view name);
  SchemaUpdate& RenameColumn(std::string_view name, std::string new_name);
  // Primitive types only, by IsPromotionAllowed. A date column's defaults become timestamps.
  SchemaUpdate& UpdateColumnType(std::string_view name, TypePtr new_type);
  SchemaUpdate& MakeOptional(std::string_view name);
  SchemaUpdate& RequireColumn(std::string_view name);
  SchemaUpdate& UpdateDoc(std::string_view name, std::string doc);
  // Sets (or, with JSON null, clears) a struct field's write-default; format version 3.
  SchemaUpdate& UpdateDefault(std::string_view name, Json write_default);
  SchemaUpdate& MoveFirst(std::string_view name);
  SchemaUpdate& MoveBefore(std::string_view name, std::string_view before);
  SchemaUpdate& MoveAfter(std::string_view name, std::string_view after);
  // Replaces the identifier fields; names are resolved now, so add columns first.
  SchemaUpdate& SetIdentifierFields(const std::vector<std::string>& names);

  // The new schema with id `schema_id` (default: the base's id + 1), validated, and the new
  // last-column-id; or the first invalid change.
  Result<Applied> Apply(std::optional<int32_t> schema_id = std::nullopt) const;

 private:
  using Edit = std::function<Status(NestedField&)>;
  using StructEdit = std::function<Status(std::vector<NestedField>&)>;

  // Runs a change unless an earlier one failed; records its error with the change's name.
  SchemaUpdate& Record(std::string_view what, const std::function<Status()>& change);
  SchemaUpdate& Add(std::string_view parent, std::string name, TypePtr type, bool required,
                    std::string doc, std::optional<Json> default_value);
  Result<const NestedField*> Find(std::string_view name) const;
  // The struct that holds a field: nullopt for the top level, else the id of the field whose type
  // is that struct.
  std::optional<int32_t> OwnerOf(int32_t id) const;
  Status CheckIsStructField(const NestedField& field, std::string_view action) const;
  Status EditField(int32_t id, const Edit& edit);
  Status EditStruct(std::optional<int32_t> owner, const StructEdit& edit);
  Status Move(std::string_view name, std::optional<std::string_view> anchor, bool after);
  void Refresh();

  SchemaPtr base_;
  int32_t last_column_id_;
  int format_version_;
  bool case_sensitive_ = true;
  bool allow_incompatible_ = false;
  std::vector<NestedField> fields_;
  SchemaPtr current_;
  std::vector<int32_t> identifier_field_ids_;
  std::vector<int32_t> partition_source_ids_;
  // Deleted ids and their names, to report deleted identifier fields by name.
  std::unordered_map<int32_t, std::string> deleted_;
  std::optional<Error> error_;
};

}  // namespace floe
