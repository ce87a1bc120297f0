#pragma once

// Writes the position delete files of one partition: (file_path, pos) pairs naming deleted rows
// of data files, with the spec's reserved field ids (2147483546 file_path, 2147483545 pos).
// Deletes are buffered and written at Close sorted by file_path, then pos, as the spec requires
// (duplicates are kept once). Both columns always get full metrics. A file whose deletes all
// name one data file records it as referenced_data_file. The optional deleted-row column is not
// written: the spec deprecates it and readers do not need it.
//
// Memory: one (path index, position) pair per delete plus each distinct path once.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/table/write/rolling_file_writer.h"

namespace floe::table {

inline constexpr int32_t kDeleteFilePathFieldId = 2147483546;
inline constexpr int32_t kDeletePosFieldId = 2147483545;

// The Iceberg and batch schemas of position delete files.
const SchemaPtr& PositionDeleteSchema();
const BatchSchemaPtr& PositionDeleteBatchSchema();

class PositionDeleteWriter {
 public:
  // options.appender.schema / batch_schema are replaced by the position delete schemas, and its
  // metrics config by the position delete form.
  explicit PositionDeleteWriter(RollingFileWriterOptions options);

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
