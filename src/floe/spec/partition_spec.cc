#include "floe/spec/partition_spec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "floe/spec/literal.h"
#include "floe/spec/schema.h"
#include "floe/util/url_encode.h"

namespace floe {
namespace {

// Source columns must be primitive and reachable through structs only (spec "Partitioning").
Status CheckSource(const Schema& schema, const PartitionField& field, int32_t source_id,
                   const NestedField& source) {
  if (!source.type->is_primitive()) {
    return InvalidArgument("partition field {}: source column {} ({}) is {}, not primitive",
                           field.ToString(), source_id, source.name, source.type->ToString());
  }
  for (auto parent = schema.FindParentId(source_id); parent;
       parent = schema.FindParentId(*parent)) {
    const NestedField* enclosing = schema.FindField(*parent);
    if (enclosing && enclosing->type->id() != TypeId::kStruct) {
      return InvalidArgument("partition field {}: source column {} is inside {} {}",
                             field.ToString(), source_id, TypeIdName(enclosing->type->id()),
                             enclosing->name);
    }
  }
  if (!field.transform.is_unknown() && !field.transform.CanTransform(*source.type)) {
    return InvalidArgument("partition field {}: transform {} cannot be applied to {} column {}",
                           field.ToString(), field.transform.ToString(), source.type->ToString(),
                           source_id);
  }
  return Ok();
}

}  // namespace

std::string PartitionField::ToString() const {
  return fmt::format("{}: {}: {}({})", field_id, name, transform.ToString(),
                     fmt::join(source_ids, ", "));
}

PartitionSpec::PartitionSpec(int32_t spec_id, std::vector<PartitionField> fields)
    : spec_id_(spec_id), fields_(std::move(fields)) {}

const PartitionSpecPtr& PartitionSpec::Unpartitioned() {
  static const PartitionSpecPtr kUnpartitioned =
      std::make_shared<const PartitionSpec>(kInitialSpecId, std::vector<PartitionField>{});
  return kUnpartitioned;
}

Result<PartitionSpecPtr> PartitionSpec::Make(const Schema& schema, int32_t spec_id,
                                             std::vector<PartitionField> fields) {
  auto spec = std::make_shared<const PartitionSpec>(spec_id, std::move(fields));
  FLOE_RETURN_IF_ERROR(spec->Validate(schema));
  return spec;
}

bool PartitionSpec::is_unpartitioned() const {
  return std::ranges::all_of(fields_, [](const auto& f) { return f.transform.is_void(); });
}

int32_t PartitionSpec::last_assigned_field_id() const {
  int32_t last = kFirstFieldId - 1;
  for (const auto& field : fields_) last = std::max(last, field.field_id);
  return last;
}

const PartitionField* PartitionSpec::FieldById(int32_t field_id) const {
  for (const auto& field : fields_) {
    if (field.field_id == field_id) return &field;
  }
  return nullptr;
}

std::vector<const PartitionField*> PartitionSpec::FieldsBySourceId(int32_t source_id) const {
  std::vector<const PartitionField*> out;
  for (const auto& field : fields_) {
    if (std::ranges::find(field.source_ids, source_id) != field.source_ids.end()) {
      out.push_back(&field);
    }
  }
  return out;
}

Status PartitionSpec::Validate(const Schema& schema) const {
  return ValidateFields(schema, /*strict=*/true);
}

Status PartitionSpec::ValidateExisting(const Schema& schema) const {
  return ValidateFields(schema, /*strict=*/false);
}

Status PartitionSpec::ValidateFields(const Schema& schema, bool strict) const {
  std::unordered_set<int32_t> ids;
  std::unordered_set<std::string> names;
  std::unordered_set<std::string> source_transforms;
  std::unordered_map<int32_t, const PartitionField*> time_fields;
  for (const auto& field : fields_) {
    if (!ids.insert(field.field_id).second) {
      return InvalidArgument("partition spec {}: field id {} is used more than once", spec_id_,
                             field.field_id);
    }
    if (field.name.empty()) {
      return InvalidArgument("partition spec {}: field {} has an empty name", spec_id_,
                             field.field_id);
    }
    if (!names.insert(field.name).second) {
      return InvalidArgument("partition spec {}: name '{}' is used more than once", spec_id_,
                             field.name);
    }
    if (field.source_ids.empty()) {
      return InvalidArgument("partition field {} has no source column", field.ToString());
    }
    if (strict && field.transform.is_unknown()) {
      return InvalidArgument("partition field {}: unknown transform '{}' cannot be written",
                             field.ToString(), field.transform.ToString());
    }
    if (strict && field.source_ids.size() > 1) {
      return InvalidArgument("partition field {}: transform {} takes one source column, not {}",
                             field.ToString(), field.transform.ToString(), field.source_ids.size());
    }
    for (int32_t source_id : field.source_ids) {
      const NestedField* source = schema.FindField(source_id);
      if (!source) {
        if (strict && !field.transform.is_void()) {
          return InvalidArgument("partition field {}: source column {} is not in the schema",
                                 field.ToString(), source_id);
        }
        continue;
      }
      FLOE_RETURN_IF_ERROR(CheckSource(schema, field, source_id, *source));
    }
    if (!strict) continue;
    if (const NestedField* column = schema.FindField(field.name)) {
      const bool same_column = field.source_ids.size() == 1 && field.source_id() == column->id;
      if (!same_column || !(field.transform.is_identity() || field.transform.is_void())) {
        return InvalidArgument(
            "partition field {}: name '{}' is a schema column; only an identity partition of "
            "that column may use it",
            field.ToString(), field.name);
      }
    }
    if (field.transform.is_void()) continue;  // v1 may keep several dropped fields per source
    const std::string key = fmt::format("{}:{}", field.source_id(), field.transform.ToString());
    if (!source_transforms.insert(key).second) {
      return InvalidArgument("partition spec {}: field {} repeats transform {} of column {}",
                             spec_id_, field.ToString(), field.transform.ToString(),
                             field.source_id());
    }
    if (field.transform.is_time()) {
      auto [it, inserted] = time_fields.emplace(field.source_id(), &field);
      if (!inserted) {
        return InvalidArgument(
            "partition spec {}: fields {} and {} are redundant time partitions "
            "of column {}",
            spec_id_, it->second->ToString(), field.ToString(), field.source_id());
      }
    }
  }
  return Ok();
}

Result<std::shared_ptr<const StructType>> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> struct_fields;
  struct_fields.reserve(fields_.size());
  for (const auto& field : fields_) {
    const NestedField* source = schema.FindField(field.source_id());
    TypePtr type;
    if (field.transform.is_unknown()) {
      type = types::String();  // as the reference implementation types what it cannot compute
    } else if (!source || field.source_ids.size() != 1) {
      type = types::Unknown();  // the source was dropped: nothing to derive a type from
    } else {
      auto result = field.transform.ResultType(source->type);
      if (!result) {
        return std::unexpected(
            std::move(result.error())
                .AddContext(fmt::format("partition spec {} field {}", spec_id_, field.ToString())));
      }
      type = *std::move(result);
    }
    struct_fields.push_back(types::Optional(field.field_id, field.name, std::move(type)));
  }
  return StructType::Make(std::move(struct_fields));
}

Result<std::string> PartitionSpec::PartitionPath(std::span<const Literal> values) const {
  if (values.size() != fields_.size()) {
    return InvalidArgument("partition spec {} has {} fields but the partition has {} values",
                           spec_id_, fields_.size(), values.size());
  }
  std::string path;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) path += '/';
    path += UrlEncodeForm(fields_[i].name);
    path += '=';
    path += UrlEncodeForm(fields_[i].transform.ToHumanString(values[i]));
  }
  return path;
}

bool PartitionSpec::CompatibleWith(const PartitionSpec& other) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const auto& a = fields_[i];
    const auto& b = other.fields_[i];
    if (a.source_ids != b.source_ids || a.transform != b.transform || a.name != b.name) {
      return false;
    }
  }
  return true;
}

std::string PartitionSpec::ToString() const {
  if (fields_.empty()) return "[]";
  std::string out = "[\n";
  for (const auto& field : fields_) out += fmt::format("  {}\n", field.ToString());
  out += "]";
  return out;
}

}  // namespace floe
