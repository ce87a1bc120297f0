#pragma once

// Schema evolution as a table change: the edits of spec/schema_update.h, replayed on the base's
// current schema each time the change is applied (so a retry after a concurrent schema change
// re-checks them), committed as a new schema made current. Errors: the first invalid edit
// (kInvalidArgument), as SchemaUpdate reports it.

#include <functional>
#include <vector>

#include "floe/spec/schema_update.h"
#include "floe/table/update/pending_update.h"

namespace floe::table {

class UpdateSchema : public PendingUpdate {
 public:
  explicit UpdateSchema(Table& table) : PendingUpdate(table) {}

  // Any edit of SchemaUpdate, e.g. [](SchemaUpdate& u) { u.RenameColumn("a", "b"); }.
  UpdateSchema& Edit(std::function<void(SchemaUpdate&)> edit);
  UpdateSchema& AddColumn(std::string name, TypePtr type, std::string doc = "");
  UpdateSchema& DeleteColumn(std::string name);
  UpdateSchema& RenameColumn(std::string name, std::string new_name);
  UpdateSchema& UpdateColumnType(std::string name, TypePtr type);
  UpdateSchema& MakeOptional(std::string name);

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;

 private:
  std::vector<std::function<void(SchemaUpdate&)>> edits_;
};

}  // namespace floe::table
