#pragma once

// Writes record batches as one Parquet file, laid out as the Iceberg spec's Parquet appendix
// requires (field ids on every node, 3-level lists and maps, timestamp/decimal/uuid annotations).
// Column chunks are buffered (compressed) until their row group is cut at row_group_size_bytes,
// so memory stays about one row group whatever the number of columns. Close() writes the footer
// and returns what an Iceberg data file records (counts, bounds, sizes, split offsets).
//
// Errors: unsupported types (unsigned 64-bit, ...) fail at Make; batches whose schema differs from
// the writer's fail at Write; I/O errors from the FileWriter are passed on. After an error the file
// is incomplete and should be discarded.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/writer/writer_options.h"
#include "floe/util/error.h"

namespace floe::io {
class FileWriter;
}

namespace floe::parquet {

// The Parquet schema elements (root first, depth-first) for a batch schema. Fields of the null
// type are left out, as Iceberg's unknown type is.
Result<std::vector<SchemaElement>> MakeParquetSchema(const BatchSchema& schema,
                                                     const WriterOptions& options);

// Metrics of one leaf column over the whole file. Bounds are the PLAIN encoding of one value
// (no length prefix), truncated as the column's metrics mode says.
struct ColumnMetrics {
  std::optional<int32_t> field_id;
  std::vector<std::string> path;
  int64_t value_count = 0;  // entries, nulls included
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;  // float and double columns
  std::optional<std::string> lower_bound;
  std::optional<std::string> upper_bound;
  int64_t column_size = 0;  // compressed bytes of its chunks, headers included
  MetricsMode mode;
};

struct WriteResult {
  int64_t row_count = 0;
  int64_t file_size = 0;
  std::vector<int64_t> split_offsets;  // start of each row group
  std::vector<ColumnMetrics> columns;  // one per leaf column, in schema order
  FileMetaData metadata;               // the footer as written
};

class ParquetWriter {
 public:
  static Result<std::unique_ptr<ParquetWriter>> Make(std::unique_ptr<io::FileWriter> file,
                                                     BatchSchemaPtr schema, WriterOptions options);
  ~ParquetWriter();

  // Appends the batch's rows; its schema must equal the writer's.
  Status Write(const RecordBatch& batch);
  // Appends rows `rows` of the batch, in that order, as Write of those rows gathered would (a
  // writer of many files takes each file's rows from a shared batch without copying them first).
  // A row outside the batch fails before anything is written.
  Status Write(const RecordBatch& batch, std::span<const int64_t> rows);
  // Flushes the last row group, writes the footer and closes the file.
  Result<WriteResult> Close();

  // Compressed bytes written or buffered so far (for rolling files at a target size).
  int64_t EstimatedSize() const;

  class Impl;

 private:
  explicit ParquetWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::parquet
