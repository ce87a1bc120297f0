#pragma once

// The writer operator of the IcebergSink (one per writer subtask): writes the rows it receives
// through the table layer's writer stack and, at every checkpoint barrier and at the end of the
// input, closes its files and hands them to the committer as a SinkWriteResult message. It keeps
// no state of its own: files not yet handed over at a failure are orphans the next attempt never
// commits (names are unique per attempt).
//
// Rows: +I and +U are inserts. Without equality fields (append, overwrite) the partitioned fanout
// writer takes them, keeping at most max-open-files files open (the least recently written
// partition's file is closed first). With equality fields (upsert, or a v2 table with identifier
// fields or equality-field-columns) the delta writer takes them, and -U / -D rows become deletes.
// Its key maps (where each key of the checkpoint was written) live until the checkpoint's files
// close and are freed then.
//
// Metrics ("<operator>.<subtask>.<name>"): flushedDataFiles, flushedDeleteFiles (counters),
// lastFlushDurationMs, lastFlushInsertedKeys (the keys the delta writer held for the checkpoint
// whose files it just closed; 0 without equality fields).
//
// What can go wrong: the table cannot be loaded or the options are bad (Open); batches whose
// columns do not match the table's, -U / -D rows without equality fields; file writer errors.

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/format/parquet/writer/writer_options.h"
#include "floe/stream/iceberg/sink_options.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/stream/operator.h"
#include "floe/table/write/writer_context.h"

namespace floe::table {
class Table;
class FanoutWriter;
class DeltaWriter;
class OutputFileFactory;
}  // namespace floe::table

namespace floe::stream {

// The files of the end of input carry this checkpoint id (Flink uses Long.MAX_VALUE alike).
inline constexpr int64_t kEndOfInputCheckpointId = std::numeric_limits<int64_t>::max();

// What a writer subtask hands its committer at checkpoint `checkpoint_id` (Message::value).
struct SinkWriteResult {
  int64_t checkpoint_id = 0;
  int subtask = 0;
  std::shared_ptr<const table::WriteResult> files;
};

// What the writer and the committer of one sink are configured with (the builder's settings).
struct SinkSpec {
  TableLoader loader;
  std::map<std::string, std::string> options;
  std::vector<std::string> equality_columns;
  std::string sink_id;  // empty: derived from the job and operator names
  // The table when the caller has it loaded already (WriteRows' writers); else loaded by `loader`.
  std::shared_ptr<table::Table> table;
  // Commit all pending checkpoints <= N in one snapshot (tagged N) instead of one per checkpoint:
  // WriteRows' triggering frequency commits several checkpoints at once.
  bool commit_pending_together = false;
  // Parquet page scratch shared with other writers of the same thread (WriteRows' per-table
  // writers); null: the writer makes one for its own files.
  std::shared_ptr<parquet::PageBuffers> page_buffers;
};

class IcebergSinkWriter : public Operator {
 public:
  explicit IcebergSinkWriter(SinkSpec spec);
  ~IcebergSinkWriter() override;

  Status Open(const OperatorContext& context) override;
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id, Output& output) override;
  Status Finish(Output& output) override;

 private:
  // Whether rows of these columns are rows of the table as they are (the last such columns are
  // remembered: a stream's batches share one schema).
  bool FitsTable(const BatchSchemaPtr& columns);
  Result<RecordBatch> AsTableRows(const RecordBatch& batch);
  Status WriteRows(const RecordBatch& rows);
  Status Flush(int64_t checkpoint_id, Output& output);

  SinkSpec spec_;
  std::string name_;
  int subtask_ = 0;
  MetricGroup* metrics_ = nullptr;
  std::shared_ptr<table::Table> table_;
  SinkOptions options_;
  std::unique_ptr<table::OutputFileFactory> data_files_;
  std::unique_ptr<table::OutputFileFactory> delete_files_;
  table::WriterContext context_;
  std::unique_ptr<table::FanoutWriter> fanout_;
  std::unique_ptr<table::DeltaWriter> delta_;
  BatchSchemaPtr fits_table_;
};

}  // namespace floe::stream
