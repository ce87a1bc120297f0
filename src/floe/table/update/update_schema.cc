#include "floe/table/update/update_schema.h"

#include <algorithm>

#include "floe/spec/partition_spec.h"

namespace floe::table {

UpdateSchema& UpdateSchema::Edit(std::function<void(SchemaUpdate&)> edit) {
  edits_.push_back(std::move(edit));
  return *this;
}

UpdateSchema& UpdateSchema::AddColumn(std::string name, TypePtr type, std::string doc) {
  return Edit([name = std::move(name), type = std::move(type),
               doc = std::move(doc)](SchemaUpdate& u) { u.AddColumn("", name, type, doc); });
}

UpdateSchema& UpdateSchema::DeleteColumn(std::string name) {
  return Edit([name = std::move(name)](SchemaUpdate& u) { u.DeleteColumn(name); });
}

UpdateSchema& UpdateSchema::RenameColumn(std::string name, std::string new_name) {
  return Edit([name = std::move(name), new_name = std::move(new_name)](SchemaUpdate& u) {
    u.RenameColumn(name, new_name);
  });
}

UpdateSchema& UpdateSchema::UpdateColumnType(std::string name, TypePtr type) {
  return Edit([name = std::move(name), type = std::move(type)](SchemaUpdate& u) {
    u.UpdateColumnType(name, type);
  });
}

UpdateSchema& UpdateSchema::MakeOptional(std::string name) {
  return Edit([name = std::move(name)](SchemaUpdate& u) { u.MakeOptional(name); });
}

Result<std::vector<catalog::TableUpdate>> UpdateSchema::Apply(const TableMetadata& base) {
  SchemaUpdate update(base.current_schema(), base.highest_assigned_column_id(),
                      base.format_version());
  std::vector<int32_t> source_ids;
  for (const PartitionSpecPtr& spec : base.partition_specs()) {
    for (const PartitionField& field : spec->fields()) {
      source_ids.insert(source_ids.end(), field.source_ids.begin(), field.source_ids.end());
    }
  }
  update.SetPartitionSourceIds(std::move(source_ids));
  for (const auto& edit : edits_) edit(update);
  int32_t next_id = 0;
  for (const SchemaPtr& schema : base.schemas())
    next_id = std::max(next_id, schema->schema_id() + 1);
  FLOE_ASSIGN_OR_RETURN(SchemaUpdate::Applied applied, update.Apply(next_id));
  std::vector<catalog::TableUpdate> updates;
  updates.push_back(catalog::AddSchema{applied.schema, applied.last_column_id});
  updates.push_back(catalog::SetCurrentSchema{catalog::kLastAdded});
  return updates;
}

}  // namespace floe::table
