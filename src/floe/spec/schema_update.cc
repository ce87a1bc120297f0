#include "floe/spec/schema_update.h"

#include <fmt/format.h>

#include <algorithm>

#include "floe/spec/literal.h"

namespace floe {
namespace {

// The highest minimum format version of a type and everything nested in it.
int RequiredFormatVersion(const Type& type) {
  int version = type.min_format_version();
  switch (type.id()) {
    case TypeId::kStruct:
      for (const auto& field : static_cast<const StructType&>(type).fields()) {
        version = std::max(version, RequiredFormatVersion(*field.type));
      }
      break;
    case TypeId::kList:
      version = std::max(version,
                         RequiredFormatVersion(*static_cast<const ListType&>(type).element().type));
      break;
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      version = std::max({version, RequiredFormatVersion(*map.key().type),
                          RequiredFormatVersion(*map.value().type)});
      break;
    }
    default:
      break;
  }
  return version;
}

void CollectIds(const NestedField& field, std::vector<int32_t>& out) {
  out.push_back(field.id);
  switch (field.type->id()) {
    case TypeId::kStruct:
      for (const auto& child : static_cast<const StructType&>(*field.type).fields()) {
        CollectIds(child, out);
      }
      break;
    case TypeId::kList:
      CollectIds(static_cast<const ListType&>(*field.type).element(), out);
      break;
    case TypeId::kMap:
      CollectIds(static_cast<const MapType&>(*field.type).key(), out);
      CollectIds(static_cast<const MapType&>(*field.type).value(), out);
      break;
    default:
      break;
  }
}

// A default value for a field of `type`: primitives by their JSON single-value form, a struct
// only as {} (its fields carry their own defaults), nothing else but null.
Status CheckDefault(const TypePtr& type, const Json& value) {
  if (value.is_null()) return Ok();
  switch (type->id()) {
    case TypeId::kStruct:
      if (!value.is_object() || !value.as_object().empty()) {
        return InvalidArgument("the default of a struct may only be null or {{}}, not {}",
                               value.Dump());
      }
      return Ok();
    case TypeId::kList:
    case TypeId::kMap:
      return InvalidArgument("defaults of {} columns are not supported", TypeIdName(type->id()));
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return InvalidArgument("a {} column must default to null", type->ToString());
    default: {
      auto literal = Literal::FromJson(type, value);
      if (!literal) return std::unexpected(std::move(literal).error());
      return Ok();
    }
  }
}

// A date default rewritten for the timestamp type the column is promoted to.
Result<Json> PromoteDateDefault(const Json& value, const TypePtr& to) {
  if (value.is_null()) return value;
  FLOE_ASSIGN_OR_RETURN(Literal date, Literal::FromJson(types::Date(), value));
  const int64_t days = date.int_value();
  const int64_t micros = days * 86'400'000'000;
  Literal promoted = to->id() == TypeId::kTimestamp ? Literal::Timestamp(micros)
                                                    : Literal::TimestampNs(micros * 1000);
  return promoted.ToJson();
}

// Applies `edit` to the field with `id` at any depth of `field`, rebuilding the types above it.
Result<bool> EditIn(NestedField& field, int32_t id,
                    const std::function<Status(NestedField&)>& edit);

Result<bool> EditInFields(std::vector<NestedField>& fields, int32_t id,
                          const std::function<Status(NestedField&)>& edit) {
  for (auto& field : fields) {
    FLOE_ASSIGN_OR_RETURN(bool found, EditIn(field, id, edit));
    if (found) return true;
  }
  return false;
}

Result<bool> EditIn(NestedField& field, int32_t id,
                    const std::function<Status(NestedField&)>& edit) {
  if (field.id == id) {
    FLOE_RETURN_IF_ERROR(edit(field));
    return true;
  }
  switch (field.type->id()) {
    case TypeId::kStruct: {
      const auto children = static_cast<const StructType&>(*field.type).fields();
      std::vector<NestedField> copy(children.begin(), children.end());
      FLOE_ASSIGN_OR_RETURN(bool found, EditInFields(copy, id, edit));
      if (found) field.type = StructType::Make(std::move(copy));
      return found;
    }
    case TypeId::kList: {
      NestedField element = static_cast<const ListType&>(*field.type).element();
      FLOE_ASSIGN_OR_RETURN(bool found, EditIn(element, id, edit));
      if (found) field.type = std::make_shared<const ListType>(std::move(element));
      return found;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(*field.type);
      NestedField key = map.key();
      NestedField value = map.value();
      FLOE_ASSIGN_OR_RETURN(bool found, EditIn(key, id, edit));
      if (!found) {
        FLOE_ASSIGN_OR_RETURN(found, EditIn(value, id, edit));
      }
      if (found) field.type = std::make_shared<const MapType>(std::move(key), std::move(value));
      return found;
    }
    default:
      return false;
  }
}

}  // namespace

bool IsPromotionAllowed(const Type& from, const Type& to, int format_version) {
  if (RequiredFormatVersion(to) > format_version) return false;
  if (from.Equals(to)) return true;
  switch (from.id()) {
    case TypeId::kUnknown:
      return format_version >= 3;
    case TypeId::kInt:
      return to.id() == TypeId::kLong;
    case TypeId::kFloat:
      return to.id() == TypeId::kDouble;
    case TypeId::kDate:
      return format_version >= 3 &&
             (to.id() == TypeId::kTimestamp || to.id() == TypeId::kTimestampNs);
    case TypeId::kDecimal: {
      if (to.id() != TypeId::kDecimal) return false;
      const auto& a = static_cast<const PrimitiveType&>(from);
      const auto& b = static_cast<const PrimitiveType&>(to);
      return a.scale() == b.scale() && b.precision() > a.precision();
    }
    default:
      return false;
  }
}

SchemaUpdate::SchemaUpdate(SchemaPtr base, int32_t last_column_id, int format_version)
    : base_(std::move(base)),
      last_column_id_(std::max(last_column_id, base_->highest_field_id())),
      format_version_(format_version),
      fields_(base_->fields().begin(), base_->fields().end()),
      current_(base_),
      identifier_field_ids_(base_->identifier_field_ids()) {}

SchemaUpdate& SchemaUpdate::CaseInsensitive() {
  case_sensitive_ = false;
  return *this;
}

SchemaUpdate& SchemaUpdate::AllowIncompatibleChanges() {
  allow_incompatible_ = true;
  return *this;
}

SchemaUpdate& SchemaUpdate::SetPartitionSourceIds(std::vector<int32_t> ids) {
  partition_source_ids_ = std::move(ids);
  return *this;
}

SchemaUpdate& SchemaUpdate::Record(std::string_view what, const std::function<Status()>& change) {
  if (error_) return *this;
  auto status = change();
  if (!status) {
    error_ = std::move(status).error();
    error_->AddContext(what);
  } else {
    Refresh();
  }
  return *this;
}

void SchemaUpdate::Refresh() {
  current_ = std::make_shared<const Schema>(fields_, base_->schema_id());
}

Result<const NestedField*> SchemaUpdate::Find(std::string_view name) const {
  const NestedField* field = current_->FindField(name, case_sensitive_);
  if (field == nullptr) return NotFound("no column named '{}'", name);
  return field;
}

std::optional<int32_t> SchemaUpdate::OwnerOf(int32_t id) const {
  return current_->FindParentId(id);
}

Status SchemaUpdate::CheckIsStructField(const NestedField& field, std::string_view action) const {
  if (auto owner = OwnerOf(field.id)) {
    const NestedField* parent = current_->FindField(*owner);
    if (parent->type->id() != TypeId::kStruct) {
      return InvalidArgument("cannot {} '{}': it is the {} of {} '{}'", action,
                             *current_->FindColumnName(field.id), field.name,
                             TypeIdName(parent->type->id()), *current_->FindColumnName(*owner));
    }
  }
  return Ok();
}

Status SchemaUpdate::EditField(int32_t id, const Edit& edit) {
  FLOE_ASSIGN_OR_RETURN(bool found, EditInFields(fields_, id, edit));
  if (!found) return InternalError("field {} vanished from the schema being updated", id);
  return Ok();
}

Status SchemaUpdate::EditStruct(std::optional<int32_t> owner, const StructEdit& edit) {
  if (!owner) return edit(fields_);
  return EditField(*owner, [&](NestedField& field) -> Status {
    if (field.type->id() != TypeId::kStruct) {
      return InternalError("field {} is not a struct", field.id);
    }
    const auto children = static_cast<const StructType&>(*field.type).fields();
    std::vector<NestedField> copy(children.begin(), children.end());
    FLOE_RETURN_IF_ERROR(edit(copy));
    field.type = StructType::Make(std::move(copy));
    return Ok();
  });
}

SchemaUpdate& SchemaUpdate::AddColumn(std::string_view parent, std::string name, TypePtr type,
                                      std::string doc, std::optional<Json> default_value) {
  return Add(parent, std::move(name), std::move(type), false, std::move(doc),
             std::move(default_value));
}

SchemaUpdate& SchemaUpdate::AddRequiredColumn(std::string_view parent, std::string name,
                                              TypePtr type, std::optional<Json> default_value,
                                              std::string doc) {
  return Add(parent, std::move(name), std::move(type), true, std::move(doc),
             std::move(default_value));
}

SchemaUpdate& SchemaUpdate::Add(std::string_view parent, std::string name, TypePtr type,
                                bool required, std::string doc, std::optional<Json> default_value) {
  return Record(fmt::format("add column '{}'", name), [&]() -> Status {
    if (name.empty()) return InvalidArgument("a column name cannot be empty");
    if (!type) return InvalidArgument("no type given");
    if (int needed = RequiredFormatVersion(*type); needed > format_version_) {
      return InvalidArgument("type {} needs format version {}, the table has {}", type->ToString(),
                             needed, format_version_);
    }
    std::optional<int32_t> owner;
    std::string full_name = name;
    if (!parent.empty()) {
      FLOE_ASSIGN_OR_RETURN(const NestedField* target, Find(parent));
      if (target->type->id() == TypeId::kList) {
        target = &static_cast<const ListType&>(*target->type).element();
      } else if (target->type->id() == TypeId::kMap) {
        target = &static_cast<const MapType&>(*target->type).value();
      }
      if (target->type->id() != TypeId::kStruct) {
        return InvalidArgument("parent '{}' is a {}, not a struct", parent,
                               target->type->ToString());
      }
      owner = target->id;
      full_name = *current_->FindColumnName(target->id) + "." + name;
    }
    if (current_->FindField(full_name, case_sensitive_) != nullptr) {
      return InvalidArgument("column '{}' already exists", full_name);
    }
    const bool has_default = default_value && !default_value->is_null();
    if (has_default) {
      if (format_version_ < 3) {
        return InvalidArgument("default values need format version 3, the table has {}",
                               format_version_);
      }
      FLOE_RETURN_IF_ERROR(CheckDefault(type, *default_value));
    }
    if (required && !has_default && !allow_incompatible_) {
      return InvalidArgument("a required column needs a non-null default value");
    }
    NestedField field{.id = 0, .name = name, .type = type, .required = required, .doc = doc};
    if (has_default) {
      field.initial_default = *default_value;
      field.write_default = *default_value;
    }
    // Fresh ids for the column, then its nested fields, in AssignFreshIds' order.
    Schema single({field});
    NestedField fresh = single.AssignFreshIds(&last_column_id_)->fields()[0];
    return EditStruct(owner, [&](std::vector<NestedField>& fields) -> Status {
      fields.push_back(std::move(fresh));
      return Ok();
    });
  });
}

SchemaUpdate& SchemaUpdate::DeleteColumn(std::string_view name) {
  return Record(fmt::format("delete column '{}'", name), [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
    FLOE_RETURN_IF_ERROR(CheckIsStructField(*field, "delete"));
    std::vector<int32_t> ids;
    CollectIds(*field, ids);
    for (int32_t id : ids) deleted_.emplace(id, *current_->FindColumnName(id));
    const int32_t id = field->id;
    return EditStruct(OwnerOf(id), [id](std::vector<NestedField>& fields) -> Status {
      std::erase_if(fields, [id](const NestedField& f) { return f.id == id; });
      return Ok();
    });
  });
}

SchemaUpdate& SchemaUpdate::RenameColumn(std::string_view name, std::string new_name) {
  return Record(fmt::format("rename column '{}'", name), [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
    FLOE_RETURN_IF_ERROR(CheckIsStructField(*field, "rename"));
    if (new_name.empty()) return InvalidArgument("a column name cannot be empty");
    if (new_name == field->name) return InvalidArgument("the new name is the old name");
    const auto owner = OwnerOf(field->id);
    const StructType& siblings =
        owner ? static_cast<const StructType&>(*current_->FindField(*owner)->type)
              : *current_->as_struct();
    const NestedField* clash = siblings.FieldByName(new_name, case_sensitive_);
    if (clash != nullptr && clash->id != field->id) {
      return InvalidArgument("a column named '{}' already exists there", clash->name);
    }
    return EditField(field->id, [&](NestedField& f) -> Status {
      f.name = new_name;
      return Ok();
    });
  });
}

SchemaUpdate& SchemaUpdate::UpdateColumnType(std::string_view name, TypePtr new_type) {
  return Record(fmt::format("update type of column '{}'", name), [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
    if (!new_type) return InvalidArgument("no type given");
    if (field->type->is_nested() || new_type->is_nested()) {
      return InvalidArgument("only primitive types can change, not {} to {}",
                             field->type->ToString(), new_type->ToString());
    }
    if (!IsPromotionAllowed(*field->type, *new_type, format_version_)) {
      return InvalidArgument("cannot change type {} to {} in format version {}",
                             field->type->ToString(), new_type->ToString(), format_version_);
    }
    const bool from_date = field->type->id() == TypeId::kDate && new_type->id() != TypeId::kDate;
    if (from_date && std::find(partition_source_ids_.begin(), partition_source_ids_.end(),
                               field->id) != partition_source_ids_.end()) {
      return InvalidArgument("it is a partition source; as a {} its partition values would change",
                             new_type->ToString());
    }
    return EditField(field->id, [&](NestedField& f) -> Status {
      if (from_date) {
        for (auto* value : {&f.initial_default, &f.write_default}) {
          if (!*value) continue;
          FLOE_ASSIGN_OR_RETURN(**value, PromoteDateDefault(**value, new_type));
        }
      }
      f.type = new_type;
      return Ok();
    });
  });
}

SchemaUpdate& SchemaUpdate::MakeOptional(std::string_view name) {
  return Record(fmt::format("make column '{}' optional", name), [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
    if (auto owner = OwnerOf(field->id)) {
      const NestedField* parent = current_->FindField(*owner);
      if (parent->type->id() == TypeId::kMap &&
          static_cast<const MapType&>(*parent->type).key().id == field->id) {
        return InvalidArgument("map keys are always required");
      }
    }
    return EditField(field->id, [](NestedField& f) -> Status {
      f.required = false;
      return Ok();
    });
  });
}

SchemaUpdate& SchemaUpdate::RequireColumn(std::string_view name) {
  return Record(fmt::format("make column '{}' required", name), [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
    // Columns added by this update hold no data yet; older ones may hold nulls.
    const bool added_here = base_->FindField(field->id) == nullptr;
    if (!field->required && !added_here && !allow_incompatible_) {
      return InvalidArgument("existing rows may hold nulls; allow incompatible changes to do this");
    }
    return EditField(field->id, [](NestedField& f) -> Status {
      f.required = true;
      return Ok();
    });
  });
}

SchemaUpdate& SchemaUpdate::UpdateDoc(std::string_view name, std::string doc) {
  return Record(fmt::format("update doc of column '{}'", name), [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
    return EditField(field->id, [&](NestedField& f) -> Status {
      f.doc = doc;
      return Ok();
    });
  });
}

SchemaUpdate& SchemaUpdate::UpdateDefault(std::string_view name, Json write_default) {
  return Record(fmt::format("update default of column '{}'", name), [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
    FLOE_RETURN_IF_ERROR(CheckIsStructField(*field, "set a default of"));
    if (format_version_ < 3) {
      return InvalidArgument("default values need format version 3, the table has {}",
                             format_version_);
    }
    if (write_default.is_null() && field->required) {
      return InvalidArgument("a required column's write default cannot be null");
    }
    FLOE_RETURN_IF_ERROR(CheckDefault(field->type, write_default));
    return EditField(field->id, [&](NestedField& f) -> Status {
      if (write_default.is_null()) {
        f.write_default.reset();
      } else {
        f.write_default = write_default;
      }
      return Ok();
    });
  });
}

Status SchemaUpdate::Move(std::string_view name, std::optional<std::string_view> anchor,
                          bool after) {
  FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
  FLOE_RETURN_IF_ERROR(CheckIsStructField(*field, "move"));
  const int32_t id = field->id;
  const auto owner = OwnerOf(id);
  std::optional<int32_t> anchor_id;
  if (anchor) {
    FLOE_ASSIGN_OR_RETURN(const NestedField* other, Find(*anchor));
    if (other->id == id) return InvalidArgument("cannot move a column relative to itself");
    if (OwnerOf(other->id) != owner) {
      return InvalidArgument("'{}' and '{}' are in different structs", name, *anchor);
    }
    anchor_id = other->id;
  }
  return EditStruct(owner, [&](std::vector<NestedField>& fields) -> Status {
    auto it = std::find_if(fields.begin(), fields.end(),
                           [id](const NestedField& f) { return f.id == id; });
    NestedField moved = std::move(*it);
    fields.erase(it);
    auto at = fields.begin();
    if (anchor_id) {
      at = std::find_if(fields.begin(), fields.end(),
                        [&](const NestedField& f) { return f.id == *anchor_id; });
      if (after) ++at;
    }
    fields.insert(at, std::move(moved));
    return Ok();
  });
}

SchemaUpdate& SchemaUpdate::MoveFirst(std::string_view name) {
  return Record(fmt::format("move column '{}' first", name),
                [&] { return Move(name, std::nullopt, false); });
}

SchemaUpdate& SchemaUpdate::MoveBefore(std::string_view name, std::string_view before) {
  return Record(fmt::format("move column '{}' before '{}'", name, before),
                [&] { return Move(name, before, false); });
}

SchemaUpdate& SchemaUpdate::MoveAfter(std::string_view name, std::string_view after) {
  return Record(fmt::format("move column '{}' after '{}'", name, after),
                [&] { return Move(name, after, true); });
}

SchemaUpdate& SchemaUpdate::SetIdentifierFields(const std::vector<std::string>& names) {
  return Record("set identifier fields", [&]() -> Status {
    std::vector<int32_t> ids;
    for (const auto& name : names) {
      FLOE_ASSIGN_OR_RETURN(const NestedField* field, Find(name));
      if (std::find(ids.begin(), ids.end(), field->id) == ids.end()) ids.push_back(field->id);
    }
    identifier_field_ids_ = std::move(ids);
    return Ok();
  });
}

Result<SchemaUpdate::Applied> SchemaUpdate::Apply(std::optional<int32_t> schema_id) const {
  if (error_) return std::unexpected(*error_);
  for (int32_t id : identifier_field_ids_) {
    if (auto it = deleted_.find(id); it != deleted_.end()) {
      return InvalidArgument("cannot delete identifier field '{}'", it->second);
    }
  }
  auto schema =
      Schema::Make(fields_, schema_id.value_or(base_->schema_id() + 1), identifier_field_ids_);
  if (!schema) return std::unexpected(std::move(schema.error().AddContext("updated schema")));
  return Applied{.schema = std::move(*schema), .last_column_id = last_column_id_};
}

}  // namespace floe
