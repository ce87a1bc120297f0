#pragma once

// Partition evolution as a table change (Iceberg's UpdatePartitionSpec): add, remove and rename
// partition fields of the default spec; the new spec follows spec/partition_evolution.h (field ids
// kept for unchanged fields, v1 keeps removed fields as void) and becomes the default. New fields
// without a name get the reference implementation's names ("id_bucket_16", "ts_day").
// Errors: unknown columns or fields, a spec that does not fit the schema (kInvalidArgument).

#include <string>
#include <vector>

#include "floe/spec/transform.h"
#include "floe/table/update/pending_update.h"

namespace floe::table {

class UpdateSpec : public PendingUpdate {
 public:
  explicit UpdateSpec(Table& table) : PendingUpdate(table) {}

  UpdateSpec& AddField(std::string source_column, Transform transform, std::string name = "");
  UpdateSpec& RemoveField(std::string name);
  UpdateSpec& RenameField(std::string name, std::string new_name);

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;

 private:
  struct Added {
    std::string source_column;
    Transform transform;
    std::string name;
  };
  std::vector<Added> added_;
  std::vector<std::string> removed_;
  std::vector<std::pair<std::string, std::string>> renamed_;
};

}  // namespace floe::table
