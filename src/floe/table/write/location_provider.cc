#include "floe/table/write/location_provider.h"

#include <algorithm>
#include <cctype>

#include "floe/io/location.h"
#include "floe/util/murmur3.h"

namespace floe::table {
namespace {

constexpr int kHashBits = 20;
constexpr int kDirDigits = 4;
constexpr int kDirDepth = 3;

std::string StripTrailingSlash(std::string_view location) {
  while (location.size() > 1 && location.back() == '/') location.remove_suffix(1);
  return std::string(location);
}

const std::string* Find(const std::map<std::string, std::string>& properties,
                        const std::string& key) {
  auto it = properties.find(key);
  return it == properties.end() ? nullptr : &it->second;
}

bool IsTrue(const std::string* value, bool fallback) {
  if (value == nullptr) return fallback;
  std::string lower;
  for (char c : *value)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return lower == "true";
}

}  // namespace

std::string ObjectStorageHashDirs(std::string_view name) {
  const uint32_t hash = Murmur3Hash32(name);
  std::string out;
  for (int bit = kHashBits - 1, digit = 0; bit >= 0; --bit, ++digit) {
    if (digit > 0 && digit <= kDirDepth * kDirDigits && digit % kDirDigits == 0) out.push_back('/');
    out.push_back(((hash >> bit) & 1U) != 0 ? '1' : '0');
  }
  return out;
}

LocationProvider::LocationProvider(std::string_view table_location,
                                   const std::map<std::string, std::string>& properties) {
  const std::string table = StripTrailingSlash(table_location);
  object_storage_ = IsTrue(Find(properties, "write.object-storage.enabled"), false);
  partitioned_paths_ = IsTrue(Find(properties, "write.object-storage.partitioned-paths"), true);
  const std::string* data = Find(properties, "write.data.path");
  if (data == nullptr && object_storage_) data = Find(properties, "write.object-storage.path");
  if (data == nullptr) data = Find(properties, "write.folder-storage.path");
  data_location_ = data != nullptr ? StripTrailingSlash(*data) : table + "/data";
  const std::string* metadata = Find(properties, "write.metadata.path");
  metadata_location_ = metadata != nullptr ? StripTrailingSlash(*metadata) : table + "/metadata";
  if (object_storage_ && !data_location_.starts_with(table)) {
    const std::string name = io::FileName(table);
    const std::string parent = io::FileName(io::ParentLocation(table));
    context_ = parent.empty() ? name : parent + "/" + name;
  }
}

std::string LocationProvider::NewDataLocation(std::string_view file_name) const {
  if (!object_storage_) return data_location_ + "/" + std::string(file_name);
  const std::string hash = ObjectStorageHashDirs(file_name);
  if (!context_.empty()) {
    return data_location_ + "/" + hash + "/" + context_ + "/" + std::string(file_name);
  }
  const char separator = partitioned_paths_ ? '/' : '-';
  return data_location_ + "/" + hash + separator + std::string(file_name);
}

Result<std::string> LocationProvider::NewDataLocation(const PartitionSpec& spec,
                                                      std::span<const Literal> values,
                                                      std::string_view file_name) const {
  FLOE_ASSIGN_OR_RETURN(std::string path, spec.PartitionPath(values));
  if (object_storage_ && !partitioned_paths_) return NewDataLocation(file_name);
  if (path.empty()) return NewDataLocation(file_name);
  return NewDataLocation(path + "/" + std::string(file_name));
}

std::string LocationProvider::NewMetadataLocation(std::string_view file_name) const {
  return metadata_location_ + "/" + std::string(file_name);
}

}  // namespace floe::table
