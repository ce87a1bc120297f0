#pragma once

// JSON forms of Iceberg types and schemas (spec Appendix C), as they appear in table metadata,
// REST catalog messages and manifest key-value metadata.
//
// Reading accepts the spec's type strings with optional whitespace around parameters
// ("decimal(9,2)", "decimal(9, 2)", "fixed[16]", "geometry(srid:4326)",
// "geography(srid:4326, spherical)"), tolerates unknown extra members, and checks field defaults
// against their types with the JSON single-value form. Errors are kCorruptData and name the
// offending member and the field it belongs to ("field 3 'lat': missing required field 'type'").
//
// Writing follows the Java reference implementation's spelling, so that metadata written by other
// engines reads back and writes out JSON-equal: primitive types as Type::ToString() (decimals as
// "decimal(P, S)"), docs and defaults only when set, and "identifier-field-ids" only when
// non-empty.

#include "floe/spec/schema.h"
#include "floe/spec/type.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

// A primitive type from its string, or a struct, list or map from its object.
Result<TypePtr> TypeFromJson(const Json& json);
Json TypeToJson(const Type& type);

// A primitive type string alone ("long", "decimal(9, 2)"...); kCorruptData for anything else.
Result<TypePtr> PrimitiveTypeFromString(std::string_view text);

// A schema object: {"type": "struct", "schema-id": 1, "identifier-field-ids": [...], "fields":
// [...]}. A missing schema-id (allowed in v1) reads as 0. The result is validated with
// Schema::Make (unique ids, identifier field rules).
Result<SchemaPtr> SchemaFromJson(const Json& json);
// Always writes "schema-id".
Json SchemaToJson(const Schema& schema);

}  // namespace floe
