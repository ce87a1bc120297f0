#pragma once

// Iceberg name mappings (spec "Column Projection", table property schema.name-mapping.default):
// field ids for data files written without them (files added from Hive or written by engines that
// do not know Iceberg), given by each field's names. A file field with no id takes the id of the
// mapped field that lists its name at the same level; fields the mapping does not name stay
// without an id and so are not read.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/spec/schema.h"
#include "floe/util/error.h"

namespace floe::table {

struct MappedField {
  std::optional<int32_t> field_id;
  std::vector<std::string> names;
  std::vector<MappedField> fields;  // nested: struct fields, list "element", map "key"/"value"
};
using NameMapping = std::vector<MappedField>;

// Parses the JSON form; kInvalidArgument (via the JSON errors) for malformed mappings.
Result<NameMapping> ParseNameMapping(std::string_view json);
// The mapping a schema implies: every field mapped by its own name.
NameMapping NameMappingOf(const Schema& schema);

// field with ids filled in from the mapping where it has none (recursively, through structs,
// lists and maps). Fields that already carry an id keep it.
Field ApplyNameMapping(const Field& field, const NameMapping& level);

}  // namespace floe::table
