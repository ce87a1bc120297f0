#pragma once

// Reads one file of a FileSource as batches of its schema: CSV, JSON lines or Parquet. Errors name
// the file, and the line for text formats.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "floe/stream/connectors/file_source.h"

namespace floe::stream {

class FileBatchReader {
 public:
  virtual ~FileBatchReader() = default;
  // The next at most max_rows rows, or nullopt at the end of the file.
  virtual Result<std::optional<RecordBatch>> Next(int64_t max_rows) = 0;
};

Result<std::unique_ptr<FileBatchReader>> OpenFileBatchReader(const FileSource& source,
                                                             const std::string& location);

}  // namespace floe::stream
