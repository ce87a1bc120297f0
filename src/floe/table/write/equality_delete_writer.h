#pragma once

// Writes the equality delete files of one partition: rows whose values in the equality_ids
// columns identify the rows to delete. The rows may be just those key columns (upserts) or whole
// rows (changelog deletes); the file's schema is whatever the appender was given, and must
// contain every equality id.
//
// What can go wrong: Make fails (kInvalidArgument) when there are no equality ids, or an id is
// not a primitive column of the file's schema or lies inside a list or map.

#include <memory>
#include <optional>
#include <vector>

#include "floe/table/write/rolling_file_writer.h"

namespace floe::table {

class EqualityDeleteWriter {
 public:
  static Result<std::unique_ptr<EqualityDeleteWriter>> Make(RollingFileWriterOptions options,
                                                            std::vector<int32_t> equality_ids,
                                                            std::optional<int32_t> sort_order_id);

  Status Write(const RecordBatch& rows) { return files_.Write(rows); }
  Result<std::vector<manifest::DataFile>> Close() { return files_.Close(); }

 private:
  explicit EqualityDeleteWriter(RollingFileWriterOptions options) : files_(std::move(options)) {}
  RollingFileWriter files_;
};

}  // namespace floe::table
