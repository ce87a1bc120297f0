#pragma once

// A FileAppender writes record batches into one new file of some format and, when closed, reports
// what a manifest needs about it: row count, size, split offsets and column metrics. Each format
// has one (ParquetAppender, AvroAppender: one class and one case in MakeFileAppender each). The
// writers above (rolling, data, delete, partitioned) only see this
// interface, so they work with every format.
//
// What can go wrong: a format without an appender (kUnsupported), batches that do not match the
// file's schema, and I/O errors; after an error the file is incomplete and must be discarded.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/io/file_io.h"
#include "floe/spec/schema.h"
#include "floe/table/write/file_metrics.h"
#include "floe/table/write/metrics_config.h"
#include "floe/table/write/write_properties.h"

namespace floe::table {

struct AppendResult {
  int64_t record_count = 0;
  int64_t file_size = 0;
  std::vector<int64_t> split_offsets;
  FileMetrics metrics;
};

class FileAppender {
 public:
  virtual ~FileAppender() = default;
  virtual Status Write(const RecordBatch& batch) = 0;
  // Rows `rows` of the batch, in that order: a writer of many files passes each file its rows of
  // a shared batch. Formats that cannot write chosen rows directly gather them first.
  virtual Status Write(const RecordBatch& batch, std::span<const int64_t> rows);
  // Bytes written plus bytes buffered for the file so far: what rolling compares to its target.
  virtual int64_t EstimatedSize() const = 0;
  virtual Result<AppendResult> Close() = 0;
};

// What every appender is made from. schema is the Iceberg schema of the rows in the file (the
// table schema, a projection of it, or a delete file's schema); batch_schema its batch form with
// field ids.
struct AppenderSpec {
  SchemaPtr schema;
  BatchSchemaPtr batch_schema;
  MetricsConfig metrics;
  const WriteProperties* properties = nullptr;
};

Result<std::unique_ptr<FileAppender>> MakeFileAppender(FileFormat format,
                                                       std::unique_ptr<io::FileWriter> file,
                                                       const AppenderSpec& spec);

}  // namespace floe::table
