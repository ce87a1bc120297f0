#include "floe/manifest/data_file.h"

#include <algorithm>
#include <cctype>

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

bool HasFileFormat(const DataFile& file, std::string_view format) {
  return std::equal(
      file.file_format.begin(), file.file_format.end(), format.begin(), format.end(),
      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

}  // namespace floe::manifest
