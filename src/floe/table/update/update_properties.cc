#include "floe/table/update/update_properties.h"

namespace floe::table {

UpdateProperties& UpdateProperties::Set(std::string key, std::string value) {
  updates_[std::move(key)] = std::move(value);
  return *this;
}

UpdateProperties& UpdateProperties::Remove(std::string key) {
  removals_.push_back(std::move(key));
  return *this;
}

Result<std::vector<catalog::TableUpdate>> UpdateProperties::Apply(const TableMetadata& base) {
  (void)base;
  for (const std::string& key : removals_) {
    if (updates_.contains(key)) {
      return InvalidArgument("property '{}' is both set and removed", key);
    }
  }
  std::vector<catalog::TableUpdate> updates;
  if (!updates_.empty()) updates.push_back(catalog::SetProperties{updates_});
  if (!removals_.empty()) updates.push_back(catalog::RemoveProperties{removals_});
  return updates;
}

}  // namespace floe::table
