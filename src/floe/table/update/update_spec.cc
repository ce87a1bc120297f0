#include "floe/table/update/update_spec.h"

#include <fmt/core.h>

#include <algorithm>

#include "floe/spec/partition_evolution.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::table {
namespace {

std::string DefaultName(const std::string& source, const Transform& transform) {
  switch (transform.kind()) {
    case Transform::Kind::kIdentity:
      return source;
    case Transform::Kind::kBucket:
      return fmt::format("{}_bucket_{}", source, transform.param());
    case Transform::Kind::kTruncate:
      return fmt::format("{}_trunc_{}", source, transform.param());
    case Transform::Kind::kYear:
      return source + "_year";
    case Transform::Kind::kMonth:
      return source + "_month";
    case Transform::Kind::kDay:
      return source + "_day";
    case Transform::Kind::kHour:
      return source + "_hour";
    default:
      return fmt::format("{}_{}", source, transform.ToString());
  }
}

}  // namespace

UpdateSpec& UpdateSpec::AddField(std::string source_column, Transform transform, std::string name) {
  added_.push_back({std::move(source_column), std::move(transform), std::move(name)});
  return *this;
}

UpdateSpec& UpdateSpec::RemoveField(std::string name) {
  removed_.push_back(std::move(name));
  return *this;
}

UpdateSpec& UpdateSpec::RenameField(std::string name, std::string new_name) {
  renamed_.emplace_back(std::move(name), std::move(new_name));
  return *this;
}

Result<std::vector<catalog::TableUpdate>> UpdateSpec::Apply(const TableMetadata& base) {
  const PartitionSpec& current = *base.default_spec();
  std::vector<PartitionField> wanted(current.fields().begin(), current.fields().end());
  // v1 keeps void fields in place; they are not "wanted" by name.
  std::erase_if(wanted, [](const PartitionField& f) { return f.transform.is_void(); });
  for (const std::string& name : removed_) {
    auto it = std::find_if(wanted.begin(), wanted.end(),
                           [&](const PartitionField& f) { return f.name == name; });
    if (it == wanted.end())
      return InvalidArgument("cannot remove unknown partition field '{}'", name);
    wanted.erase(it);
  }
  for (const auto& [name, new_name] : renamed_) {
    auto it = std::find_if(wanted.begin(), wanted.end(),
                           [&](const PartitionField& f) { return f.name == name; });
    if (it == wanted.end())
      return InvalidArgument("cannot rename unknown partition field '{}'", name);
    it->name = new_name;
  }
  const Schema& schema = *base.current_schema();
  for (const Added& add : added_) {
    const NestedField* source = schema.FindField(add.source_column);
    if (!source) {
      return InvalidArgument("cannot partition by unknown column '{}'", add.source_column);
    }
    PartitionField field;
    field.source_ids = {source->id};
    field.transform = add.transform;
    field.name = add.name.empty() ? DefaultName(add.source_column, add.transform) : add.name;
    wanted.push_back(std::move(field));
  }
  int32_t next_id = 0;
  for (const PartitionSpecPtr& spec : base.partition_specs()) {
    next_id = std::max(next_id, spec->spec_id() + 1);
  }
  PartitionHistory history{base.format_version(), base.partition_specs(), &current,
                           base.last_partition_id()};
  FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec,
                        EvolvePartitionSpec(history, std::move(wanted), next_id));
  FLOE_RETURN_IF_ERROR(spec->Validate(schema));
  std::vector<catalog::TableUpdate> updates;
  updates.push_back(catalog::AddPartitionSpec{spec});
  updates.push_back(catalog::SetDefaultSpec{catalog::kLastAdded});
  return updates;
}

}  // namespace floe::table
