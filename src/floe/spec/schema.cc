#include "floe/spec/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "floe/util/strings.h"

namespace floe {
namespace {

// The part of `field` that leads to the selected ids, or nullopt when none is inside it.
std::optional<NestedField> Prune(const NestedField& field,
                                 const std::unordered_set<int32_t>& selected) {
  if (selected.contains(field.id)) return field;
  switch (field.type->id()) {
    case TypeId::kStruct: {
      std::vector<NestedField> kept;
      for (const auto& child : static_cast<const StructType&>(*field.type).fields()) {
        if (auto pruned = Prune(child, selected)) kept.push_back(std::move(*pruned));
      }
      if (kept.empty()) return std::nullopt;
      NestedField out = field;
      out.type = StructType::Make(std::move(kept));
      return out;
    }
    case TypeId::kList: {
      auto element = Prune(static_cast<const ListType&>(*field.type).element(), selected);
      if (!element) return std::nullopt;
      NestedField out = field;
      out.type = std::make_shared<const ListType>(std::move(*element));
      return out;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(*field.type);
      auto key = Prune(map.key(), selected);
      auto value = Prune(map.value(), selected);
      if (!key && !value) return std::nullopt;
      NestedField out = field;
      out.type = std::make_shared<const MapType>(map.key(), value ? *value : map.value());
      return out;
    }
    default:
      return std::nullopt;
  }
}

// Renumbers a type's nested fields: the fields of each struct first, then their children.
TypePtr Renumber(const TypePtr& type, const std::string& prefix,
                 const std::function<int32_t(const std::string&)>& new_id,
                 std::unordered_map<int32_t, int32_t>& old_to_new);

NestedField RenumberedField(const NestedField& field, int32_t id) {
  NestedField out = field;
  out.id = id;
  return out;
}

std::string Child(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

TypePtr Renumber(const TypePtr& type, const std::string& prefix,
                 const std::function<int32_t(const std::string&)>& new_id,
                 std::unordered_map<int32_t, int32_t>& old_to_new) {
  switch (type->id()) {
    case TypeId::kStruct: {
      const auto fields = static_cast<const StructType&>(*type).fields();
      std::vector<NestedField> out;
      out.reserve(fields.size());
      for (const auto& field : fields) {
        const int32_t id = new_id(Child(prefix, field.name));
        old_to_new[field.id] = id;
        out.push_back(RenumberedField(field, id));
      }
      for (auto& field : out) {
        field.type = Renumber(field.type, Child(prefix, field.name), new_id, old_to_new);
      }
      return StructType::Make(std::move(out));
    }
    case TypeId::kList: {
      const auto& element = static_cast<const ListType&>(*type).element();
      const std::string name = Child(prefix, element.name);
      NestedField out = RenumberedField(element, new_id(name));
      old_to_new[element.id] = out.id;
      out.type = Renumber(out.type, name, new_id, old_to_new);
      return std::make_shared<const ListType>(std::move(out));
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(*type);
      const std::string key_name = Child(prefix, map.key().name);
      const std::string value_name = Child(prefix, map.value().name);
      NestedField key = RenumberedField(map.key(), new_id(key_name));
      NestedField value = RenumberedField(map.value(), new_id(value_name));
      old_to_new[map.key().id] = key.id;
      old_to_new[map.value().id] = value.id;
      key.type = Renumber(key.type, key_name, new_id, old_to_new);
      value.type = Renumber(value.type, value_name, new_id, old_to_new);
      return std::make_shared<const MapType>(std::move(key), std::move(value));
    }
    default:
      return type;
  }
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
        by_lower_name_.emplace(AsciiLower(name), field.id);
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
  auto schema =
      std::make_shared<const Schema>(std::move(fields), schema_id, std::move(identifier_field_ids));
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
  auto it = index.find(case_sensitive ? std::string(full_name) : AsciiLower(full_name));
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

SchemaPtr Schema::Project(const std::vector<int32_t>& field_ids) const {
  const std::unordered_set<int32_t> selected(field_ids.begin(), field_ids.end());
  std::vector<NestedField> kept;
  for (const auto& field : fields()) {
    if (auto pruned = Prune(field, selected)) kept.push_back(std::move(*pruned));
  }
  auto projected = std::make_shared<Schema>(std::move(kept), schema_id_);
  for (int32_t id : identifier_field_ids_) {
    if (projected->FindField(id) != nullptr) projected->identifier_field_ids_.push_back(id);
  }
  for (const auto& [alias, id] : aliases_) {
    if (projected->FindField(id) != nullptr) {
      projected->aliases_.emplace(alias, id);
      projected->id_to_alias_.emplace(id, alias);
    }
  }
  return projected;
}

Result<SchemaPtr> Schema::Select(const std::vector<std::string>& names, bool case_sensitive) const {
  std::vector<int32_t> ids;
  ids.reserve(names.size());
  for (const auto& name : names) {
    const NestedField* field = FindField(name, case_sensitive);
    if (field == nullptr) return NotFound("cannot select '{}': no such column", name);
    ids.push_back(field->id);
  }
  return Project(ids);
}

SchemaPtr Schema::AssignFreshIds(const std::function<int32_t()>& next_id, const Schema* base,
                                 int32_t schema_id) const {
  auto new_id = [&](const std::string& full_name) {
    if (base != nullptr) {
      if (const NestedField* existing = base->FindField(full_name)) return existing->id;
    }
    return next_id();
  };
  std::unordered_map<int32_t, int32_t> old_to_new;
  TypePtr renumbered = Renumber(struct_, "", new_id, old_to_new);
  const auto& fields = static_cast<const StructType&>(*renumbered).fields();
  std::vector<int32_t> identifiers;
  for (int32_t id : identifier_field_ids_) {
    if (auto it = old_to_new.find(id); it != old_to_new.end()) identifiers.push_back(it->second);
  }
  auto out = std::make_shared<Schema>(std::vector<NestedField>(fields.begin(), fields.end()),
                                      schema_id, std::move(identifiers));
  for (const auto& [alias, id] : aliases_) {
    if (auto it = old_to_new.find(id); it != old_to_new.end()) {
      out->aliases_.emplace(alias, it->second);
      out->id_to_alias_.emplace(it->second, alias);
    }
  }
  return out;
}

SchemaPtr Schema::AssignFreshIds(int32_t* last_column_id, int32_t schema_id) const {
  return AssignFreshIds([last_column_id] { return ++*last_column_id; }, nullptr, schema_id);
}

SchemaPtr Schema::WithAliases(std::unordered_map<std::string, int32_t> aliases) const {
  auto out = std::make_shared<Schema>(*this);
  out->id_to_alias_.clear();
  for (const auto& [alias, id] : aliases) out->id_to_alias_.emplace(id, alias);
  out->aliases_ = std::move(aliases);
  return out;
}

std::optional<int32_t> Schema::AliasToId(std::string_view alias) const {
  auto it = aliases_.find(std::string(alias));
  if (it == aliases_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> Schema::IdToAlias(int32_t id) const {
  auto it = id_to_alias_.find(id);
  if (it == id_to_alias_.end()) return std::nullopt;
  return it->second;
}

const NestedField* Schema::FindFieldByAlias(std::string_view alias) const {
  auto id = AliasToId(alias);
  return id ? FindField(*id) : nullptr;
}

bool Schema::SameSchema(const Schema& other) const {
  return struct_->Equals(*other.struct_) && identifier_field_ids_ == other.identifier_field_ids_;
}

}  // namespace floe
