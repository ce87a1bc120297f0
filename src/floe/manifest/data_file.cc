#include "floe/manifest/data_file.h"

namespace floe::manifest {

std::string_view FileContentName(FileContent content) {
  switch (content) {
    case FileContent::kData:
      return "data";
    case FileContent::kPositionDeletes:
      return "position_deletes";
    case FileContent::kEqualityDeletes:
      return "equality_deletes";
  }
  return "?";
}

std::string_view ManifestContentName(ManifestContent content) {
  return content == ManifestContent::kData ? "data" : "deletes";
}

std::string_view EntryStatusName(EntryStatus status) {
  switch (status) {
    case EntryStatus::kExisting:
      return "EXISTING";
    case EntryStatus::kAdded:
      return "ADDED";
    case EntryStatus::kDeleted:
      return "DELETED";
  }
  return "?";
}

std::string PartitionKey(int32_t spec_id, std::span<const Literal> partition) {
  std::string key(reinterpret_cast<const char*>(&spec_id), sizeof(spec_id));
  for (const Literal& value : partition) {
    if (value.is_null()) {
      key.push_back('\0');
      continue;
    }
    Result<std::string> bytes = value.ToBinary();
    // A value without a binary form (an unknown transform's) still needs a stable identity.
    std::string text = bytes ? *std::move(bytes) : value.ToString();
    uint32_t size = static_cast<uint32_t>(text.size());
    key.push_back(bytes ? '\1' : '\2');
    key.append(reinterpret_cast<const char*>(&size), sizeof(size));
    key.append(text);
  }
  return key;
}

}  // namespace floe::manifest
