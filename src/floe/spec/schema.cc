#include "floe/spec/schema.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include <fmt/format.h>

namespace floe {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

Schema::Schema(std::vector<NestedField> fields, int32_t schema_id,
               std::vector<int32_t> identifier_field_ids)
    : schema_id_(schema_id),
      struct_(StructType::Make(std::move(fields))),
      identifier_field_ids_(std::move(identifier_field_ids)) {
  Index();
}

void Schema::Index() {
  // Walks the tree once, recording each field under its id and full dotted name.
  std::function<void(const NestedField&, const std::string&, std::optional<int32_t>)> visit =
      [&](const NestedField& field, const std::string& prefix, std::optional<int32_t> parent) {
        std::string name = prefix.empty() ? field.name : prefix + "." + field.name;
        by_id_.emplace(field.id, &field);
        all_field_ids_.push_back(field.id);
        highest_field_id_ = std::max(highest_field_id_, field.id);
        name_of_.emplace(field.id, name);
        by_name_.emplace(name, field.id);
        by_lower_name_.emplace(Lower(name), field.id);
        if (parent) parent_of_.emplace(field.id, *parent);
        if (!field.type) return;
        switch (field.type->id()) {
          case TypeId::kStruct:
            for (const auto& child : static_cast<const StructType&>(*field.type).fields()) {
              visit(child, name, field.id);
            }
            break;
          case TypeId::kList:
            visit(static_cast<const ListType&>(*field.type).element(), name, field.id);
            break;
          case TypeId::kMap: {
            const auto& map = static_cast<const MapType&>(*field.type);
            visit(map.key(), name, field.id);
            visit(map.value(), name, field.id);
            break;
          }
          default:
            break;
        }
      };
  for (const auto& field : struct_->fields()) visit(field, "", std::nullopt);
}

Result<SchemaPtr> Schema::Make(std::vector<NestedField> fields, int32_t schema_id,
                               std::vector<int32_t> identifier_field_ids) {
  auto schema = std::make_shared<const Schema>(std::move(fields), schema_id,
                                               std::move(identifier_field_ids));
  // Ids unique across the whole tree: the index keeps the first of duplicates.
  if (schema->all_field_ids_.size() != schema->by_id_.size()) {
    std::unordered_set<int32_t> seen;
    for (int32_t id : schema->all_field_ids_) {
      if (!seen.insert(id).second) return InvalidArgument("schema has duplicate field id {}", id);
    }
  }
  // Names unique within each struct.
  std::function<Status(const StructType&)> check_names = [&](const StructType& s) -> Status {
    std::unordered_set<std::string_view> names;
    for (const auto& field : s.fields()) {
      if (!field.type) return InvalidArgument("field {} '{}' has no type", field.id, field.name);
      if (!names.insert(field.name).second) {
        return InvalidArgument("schema has two fields named '{}' in one struct", field.name);
      }
    }
    return Ok();
  };
  for (int32_t id : schema->all_field_ids_) {
    const NestedField* field = schema->FindField(id);
    if (field->type && field->type->id() == TypeId::kStruct) {
      FLOE_RETURN_IF_ERROR(check_names(static_cast<const StructType&>(*field->type)));
    }
  }
  FLOE_RETURN_IF_ERROR(check_names(*schema->struct_));
  for (int32_t id : schema->identifier_field_ids_) {
    const NestedField* field = schema->FindField(id);
    if (field == nullptr) return InvalidArgument("identifier field {} is not in the schema", id);
    if (!field->type->is_primitive()) {
      return InvalidArgument("identifier field '{}' must be a primitive type, not {}", field->name,
                             field->type->ToString());
    }
    if (field->type->id() == TypeId::kFloat || field->type->id() == TypeId::kDouble) {
      return InvalidArgument("identifier field '{}' cannot be a {}", field->name,
                             field->type->ToString());
    }
    if (!field->required) {
      return InvalidArgument("identifier field '{}' must be required", field->name);
    }
    for (auto parent = schema->FindParentId(id); parent; parent = schema->FindParentId(*parent)) {
      const NestedField* p = schema->FindField(*parent);
      if (p->type->id() != TypeId::kStruct) {
        return InvalidArgument("identifier field '{}' cannot be nested in a {}", field->name,
                               TypeIdName(p->type->id()));
      }
      if (!p->required) {
        return InvalidArgument("identifier field '{}' cannot be nested in optional struct '{}'",
                               field->name, p->name);
      }
    }
  }
  return schema;
}

const NestedField* Schema::FindField(int32_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

const NestedField* Schema::FindField(std::string_view full_name, bool case_sensitive) const {
  const auto& index = case_sensitive ? by_name_ : by_lower_name_;
  auto it = index.find(case_sensitive ? std::string(full_name) : Lower(full_name));
  return it == index.end() ? nullptr : FindField(it->second);
}

std::optional<std::string> Schema::FindColumnName(int32_t id) const {
  auto it = name_of_.find(id);
  if (it == name_of_.end()) return std::nullopt;
  return it->second;
}

std::optional<int32_t> Schema::FindParentId(int32_t id) const {
  auto it = parent_of_.find(id);
  if (it == parent_of_.end()) return std::nullopt;
  return it->second;
}

std::string Schema::ToString() const {
  std::string out = fmt::format("table {{ (schema {})\n", schema_id_);
  for (const auto& field : fields()) out += "  " + field.ToString() + "\n";
  return out + "}";
}

bool Schema::SameSchema(const Schema& other) const {
  return struct_->Equals(*other.struct_) && identifier_field_ids_ == other.identifier_field_ids_;
}

}  // namespace floe
