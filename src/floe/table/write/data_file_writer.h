#pragma once

// Writes the data files of one partition (content "data"), rolling at the target size. Each file
// records the sort order its rows follow (sort_order_id), if any.

#include <optional>
#include <span>
#include <vector>

#include "floe/table/write/rolling_file_writer.h"

namespace floe::table {

class DataFileWriter {
 public:
  DataFileWriter(RollingFileWriterOptions options, std::optional<int32_t> sort_order_id);

  Status Write(const RecordBatch& batch) { return files_.Write(batch); }
  Status Write(const RecordBatch& batch, std::span<const int64_t> rows) {
    return files_.Write(batch, rows);
  }
  Result<std::vector<manifest::DataFile>> Close() { return files_.Close(); }
  RollingFileWriter& files() { return files_; }

 private:
  RollingFileWriter files_;
};

}  // namespace floe::table
