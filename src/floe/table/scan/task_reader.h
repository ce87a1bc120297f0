#pragma once

// Reads planned scan tasks into batches: the last step of a scan (TableScan plans, TaskReader
// reads). For each FileScanTask it reads the task's byte range of the data file by field id,
// projects the columns onto the requested schema (schema evolution, defaults, identity partition
// values for columns the file lacks), drops the rows that position deletes, deletion vectors or
// equality deletes remove, and keeps only rows that satisfy the task's residual filter.
//
//   TaskReader reader(io, scan.schema(), scan.ProjectedSchema());
//   for (const CombinedScanTask& group : tasks) FLOE_RETURN_IF_ERROR(reader.Read(group, sink));
//
// Partition-scoped position delete files are read once per combined task; equality delete files
// once per EqualityDeleteCache, which readers of one scan on several threads share
// (TaskReadOptions). An equality delete file is only applied to a data file whose key column
// bounds may hold its keys. A TaskReader is not thread-safe: use one per thread.
// Errors name the data or delete file: unsupported formats (ORC),
// corrupt files, columns the file holds in a type the table cannot read them as.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "floe/batch/record_batch.h"
#include "floe/io/file_io.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/data_file_reader.h"
#include "floe/table/scan/equality_delete_cache.h"
#include "floe/table/scan/file_scan_task.h"
#include "floe/table/scan/name_mapping.h"
#include "floe/table/scan/position_delete_loader.h"
#include "floe/util/error.h"

namespace floe::table {

struct TaskReadOptions {
  int64_t batch_rows = 8192;
  // Ids for data files written without field ids (table property schema.name-mapping.default);
  // without one such files are matched by the schema's column names.
  std::optional<NameMapping> name_mapping;
  // Hand the residual's usable conjuncts to the Parquet reader so that it skips row groups and
  // pages statistics, page indexes and bloom filters rule out; the residual still runs on what
  // is read. Off only to measure what it saves.
  bool push_down_filter = true;
  // The equality-delete sets, shared with other readers of the same scan; the reader makes its
  // own when unset.
  std::shared_ptr<EqualityDeleteCache> equality_deletes;
};

// What filter push-down skipped in the tasks read so far.
struct ScanSkipMetrics {
  int64_t row_groups_skipped = 0;
  int64_t rows_skipped_by_page_index = 0;
};

// The batches of one task, one at a time.
class TaskBatchStream {
 public:
  virtual ~TaskBatchStream() = default;
  // The next non-empty batch of the projected schema's columns, or nullopt at the end.
  virtual Result<std::optional<RecordBatch>> Next() = 0;
};

class TaskReader {
 public:
  // table_schema: the schema the scan's residuals are bound to; projected: the columns to return
  // (a projection of table_schema).
  TaskReader(std::shared_ptr<io::FileIO> io, SchemaPtr table_schema, SchemaPtr projected,
             TaskReadOptions options = {});
  ~TaskReader();

  const BatchSchemaPtr& output_schema() const { return output_schema_; }

  // The batches of one task; the stream borrows this reader, which must outlive it.
  Result<std::unique_ptr<TaskBatchStream>> Open(const FileScanTask& task);
  // Every batch of the task, or of each task of the group, handed to sink in order; stops at the
  // first error. Position delete files read for a group are forgotten after it.
  Status Read(const FileScanTask& task, const std::function<Status(RecordBatch)>& sink);
  Status Read(const CombinedScanTask& group, const std::function<Status(RecordBatch)>& sink);

  // Forgets the position delete files read so far (equality deletes stay in their cache).
  void ClearDeleteCache();

  // Counted when a task's stream is destroyed.
  const ScanSkipMetrics& skip_metrics() const { return skip_metrics_; }

 private:
  class Stream;

  std::shared_ptr<io::FileIO> io_;
  SchemaPtr table_schema_;
  SchemaPtr projected_;
  TaskReadOptions options_;
  BatchSchemaPtr output_schema_;
  PositionDeleteLoader positions_;
  ScanSkipMetrics skip_metrics_;
};

}  // namespace floe::table
