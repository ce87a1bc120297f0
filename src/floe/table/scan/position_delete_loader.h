#pragma once

// Loads the positions a data file's position deletes name: rows (file_path, pos) of position
// delete files (Parquet, ids 2147483546 and 2147483545; sorted or not; only rows for this data
// file count) and v3 deletion vectors (Puffin blobs located by content_offset and
// content_size_in_bytes). A delete file that covers many data files is read once and kept by
// path for the next data file of the same scan.
//
// Position delete rows name data files by the paths the table's metadata records, so callers pass
// the task's recorded path, not a location-mapped one. A path recorded as hdfs://host:port/p also
// matches /p (HDFS writers such as Impala use both forms for one file). Errors name the delete
// file.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/manifest/data_file.h"
#include "floe/table/scan/position_delete_index.h"
#include "floe/util/error.h"

namespace floe::table {

class PositionDeleteLoader {
 public:
  explicit PositionDeleteLoader(std::shared_ptr<io::FileIO> io) : io_(std::move(io)) {}

  // Adds the positions delete_file holds for the data file recorded as data_path to index.
  Status AddTo(const manifest::DataFile& delete_file, const std::string& data_path,
               PositionDeleteIndex& index);

  // Forgets the position delete files read so far.
  void Clear() { files_.clear(); }

 private:
  using PositionsByPath = std::unordered_map<std::string, std::vector<int64_t>>;
  Result<std::shared_ptr<const PositionsByPath>> Load(const manifest::DataFile& delete_file);

  std::shared_ptr<io::FileIO> io_;
  std::unordered_map<std::string, std::shared_ptr<const PositionsByPath>> files_;
};

}  // namespace floe::table
