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

}  // namespace floe::manifest
