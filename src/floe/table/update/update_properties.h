#pragma once

// Sets and removes table properties in one change. A key both set and removed is an error
// (kInvalidArgument), as in Iceberg's UpdateProperties.

#include <string>
#include <vector>

#include "floe/table/update/pending_update.h"

namespace floe::table {

class UpdateProperties : public PendingUpdate {
 public:
  explicit UpdateProperties(Table& table) : PendingUpdate(table) {}

  UpdateProperties& Set(std::string key, std::string value);
  UpdateProperties& Remove(std::string key);

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;

 private:
  StringMap updates_;
  std::vector<std::string> removals_;
};

}  // namespace floe::table
