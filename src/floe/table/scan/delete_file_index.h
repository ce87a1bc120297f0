#pragma once

// Which delete files apply to which data file (spec "Scan Planning", delete scope rules):
//  - a deletion vector (a Puffin position delete with referenced_data_file) applies to that one
//    data file when its data sequence number is >= the data file's, and it supersedes position
//    delete files for that file;
//  - a position delete file applies when its data sequence number is >= the data file's, the
//    partition (spec id and values) is the same, referenced_data_file (when set) is the data
//    file's path, and its file_path bounds (field 2147483546), when present, include that path;
//  - an equality delete file applies when its data sequence number is > the data file's and the
//    partition is the same, or everywhere when its spec is unpartitioned.
// Built once per scan from the live entries of the delete manifests, then read-only (safe to query
// from several threads). Results are ordered by data sequence number, then by the order the
// delete files were added, so plans are deterministic.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/table/scan/file_scan_task.h"
#include "floe/util/error.h"

namespace floe::table {

using manifest::PartitionKey;

class DeleteFileIndex {
 public:
  struct Entry {
    DataFilePtr file;  // paths as planned (possibly mapped)
    int64_t data_sequence_number = 0;
    std::string partition_key;  // PartitionKey of the file
    bool global = false;        // an equality delete of an unpartitioned spec
  };

  // file's referenced_data_file and bounds must hold the recorded paths.
  void Add(Entry entry);
  // Sorts the index; call once after the last Add.
  void Build();

  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }

  // The delete files for a data file, given its recorded path, data sequence number and
  // partition key.
  std::vector<DataFilePtr> ForDataFile(std::string_view path, int64_t data_sequence_number,
                                       const std::string& partition_key) const;

 private:
  struct Ordered {
    int64_t seq;
    size_t order;
    const Entry* entry;
  };
  static void SortBySequence(std::vector<Ordered>& v);

  std::vector<Entry> entries_;  // in Add order; the indexes below point into it after Build
  size_t count_ = 0;
  std::vector<Ordered> global_eq_;
  std::unordered_map<std::string, std::vector<Ordered>> eq_by_partition_;
  std::unordered_map<std::string, std::vector<Ordered>> pos_by_partition_;
  std::unordered_map<std::string, std::vector<Ordered>> pos_by_path_;  // referenced_data_file set
  std::unordered_map<std::string, std::vector<Ordered>> dv_by_path_;
};

}  // namespace floe::table
