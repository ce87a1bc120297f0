#pragma once

// Writes the position deletes of one partition's commit as deletion vectors, as format v3 tables
// require (spec "Deletion Vectors"; v3 forbids new position delete files): at Close one Puffin file
// (puffin-spec) holding one `deletion-vector-v1` blob per data file named, each a big-endian
// length, the magic D1 D3 39 64, the positions as a portable 64-bit Roaring bitmap and a big-endian
// CRC-32 of magic and bitmap; blob properties `referenced-data-file` and `cardinality`, snapshot id
// and sequence number -1, fields [row position 2147483645]. Each returned DataFile is one vector:
// content position deletes, format "puffin", the Puffin file's path and size, referenced_data_file,
// content_offset and content_size_in_bytes locating the blob, record_count its cardinality.
//
// The same interface as PositionDeleteWriter. A data file gets one vector per commit, so the
// caller hands all of a commit's deletes of a file to one writer; the data files a DeltaWriter
// deletes from are those of its own commit, which have no vector yet.
//
// Memory: one (path index, position) pair per delete plus each distinct path once.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/table/write/rolling_file_writer.h"

namespace floe::table {

inline constexpr int32_t kRowPositionFieldId = 2147483645;

class DeletionVectorWriter {
 public:
  // Uses options.io, files (the Puffin file is named like the others, ending in ".puffin"), spec
  // and partition.
  explicit DeletionVectorWriter(RollingFileWriterOptions options);

  void Delete(std::string_view path, int64_t pos);
  int64_t buffered() const { return static_cast<int64_t>(entries_.size()); }
  Result<std::vector<manifest::DataFile>> Close();

 private:
  struct Entry {
    uint32_t path;
    int64_t pos;
  };
  RollingFileWriterOptions options_;
  std::vector<std::string> paths_;
  std::unordered_map<std::string, uint32_t> path_index_;
  std::vector<Entry> entries_;
};

}  // namespace floe::table
