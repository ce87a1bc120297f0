#pragma once

// Reads one file of a FileSource as batches of its schema: CSV, JSON lines or Parquet. Errors name
// the file, and the line for text formats.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "floe/stream/connectors/file_source.h"

namespace floe::stream {

class FileBatchReader {
 public:
  virtual ~FileBatchReader() = default;
  // The next at most max_rows rows, or nullopt at the end of the file.
  virtual Result<std::optional<RecordBatch>> Next(int64_t max_rows) = 0;
};

// byte_range (offset, length): only the Parquet row groups starting in it (a split of a large
// file); the whole file when unset. Text files are always read whole.
Result<std::unique_ptr<FileBatchReader>> OpenFileBatchReader(
    const FileSource& source, const std::string& location,
    std::optional<std::pair<int64_t, int64_t>> byte_range = std::nullopt);

}  // namespace floe::stream
