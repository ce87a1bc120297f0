#include "floe/table/scan/delete_file_index.h"

#include <algorithm>

namespace floe::table {
namespace {

// The field id of position delete files' file_path column (spec "Position Delete Files").
constexpr int32_t kDeleteFilePathFieldId = 2147483546;

bool IsDeletionVector(const manifest::DataFile& file) {
  return file.content == manifest::FileContent::kPositionDeletes &&
         file.referenced_data_file.has_value() && file.file_format == "puffin";
}

// Whether the delete file's file_path bounds allow path; missing bounds allow everything.
bool PathInBounds(const manifest::DataFile& file, std::string_view path) {
  const std::string* lower = manifest::Find(file.lower_bounds, kDeleteFilePathFieldId);
  const std::string* upper = manifest::Find(file.upper_bounds, kDeleteFilePathFieldId);
  if (lower && path < std::string_view(*lower)) return false;
  if (upper && path > std::string_view(*upper)) return false;
  return true;
}

}  // namespace

void DeleteFileIndex::Add(Entry entry) {
  entries_.push_back(std::move(entry));
  ++count_;
}

void DeleteFileIndex::SortBySequence(std::vector<Ordered>& v) {
  std::sort(v.begin(), v.end(), [](const Ordered& a, const Ordered& b) {
    return a.seq != b.seq ? a.seq < b.seq : a.order < b.order;
  });
}

void DeleteFileIndex::Build() {
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    Ordered o{e.data_sequence_number, i, &e};
    const manifest::DataFile& file = *e.file;
    if (file.content == manifest::FileContent::kEqualityDeletes) {
      if (e.global) {
        global_eq_.push_back(o);
      } else {
        eq_by_partition_[e.partition_key].push_back(o);
      }
    } else if (IsDeletionVector(file)) {
      dv_by_path_[*file.referenced_data_file].push_back(o);
    } else if (file.referenced_data_file) {
      pos_by_path_[*file.referenced_data_file].push_back(o);
    } else {
      pos_by_partition_[e.partition_key].push_back(o);
    }
  }
  SortBySequence(global_eq_);
  for (auto* map : {&eq_by_partition_, &pos_by_partition_, &pos_by_path_, &dv_by_path_}) {
    for (auto& [key, v] : *map) SortBySequence(v);
  }
}

std::vector<DataFilePtr> DeleteFileIndex::ForDataFile(std::string_view path,
                                                      int64_t data_sequence_number,
                                                      const std::string& partition_key) const {
  std::vector<Ordered> found;
  auto take = [&](const std::vector<Ordered>& v, bool strictly_newer, bool check) {
    // v is sorted by sequence number: skip the older ones at once.
    auto first = std::partition_point(v.begin(), v.end(), [&](const Ordered& o) {
      return strictly_newer ? o.seq <= data_sequence_number : o.seq < data_sequence_number;
    });
    for (auto it = first; it != v.end(); ++it) {
      if (check &&
          (it->entry->partition_key != partition_key || !PathInBounds(*it->entry->file, path))) {
        continue;
      }
      found.push_back(*it);
    }
  };

  bool has_dv = false;
  if (!dv_by_path_.empty()) {
    auto it = dv_by_path_.find(std::string(path));
    if (it != dv_by_path_.end()) {
      size_t before = found.size();
      take(it->second, false, true);
      has_dv = found.size() > before;
    }
  }
  if (!has_dv) {
    if (!pos_by_path_.empty()) {
      auto it = pos_by_path_.find(std::string(path));
      if (it != pos_by_path_.end()) take(it->second, false, true);
    }
    if (!pos_by_partition_.empty()) {
      auto it = pos_by_partition_.find(partition_key);
      if (it != pos_by_partition_.end()) take(it->second, false, true);
    }
  }
  take(global_eq_, true, false);
  if (!eq_by_partition_.empty()) {
    auto it = eq_by_partition_.find(partition_key);
    if (it != eq_by_partition_.end()) take(it->second, true, false);
  }

  SortBySequence(found);
  std::vector<DataFilePtr> out;
  out.reserve(found.size());
  for (const Ordered& o : found) out.push_back(o.entry->file);
  return out;
}

}  // namespace floe::table
