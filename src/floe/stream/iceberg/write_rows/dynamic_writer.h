#pragma once

// The writer operator of WriteRows (one per writer subtask): splits each batch by destination,
// makes sure each destination's table exists and takes the rows (DestinationTables), buffers them
// per destination (a batch spread over many tables leaves a small slice for each), and writes
// them through one IcebergSinkWriter per table, the IcebergSink's writer, so that files, names,
// row kinds and upserts behave exactly as there. Buffers are bounded (rows, bytes and age in input
// batches per destination) and always emptied into the files before a barrier's files are handed
// on, so no buffered row outlives its checkpoint. Batches may carry columns other than the
// stream's (a new column, a wider type): that is how rows evolve a table's schema.
//
// Metrics ("<operator>.<subtask>.<name>"): catalogRequests, bufferFlushes (buffers handed to
// their table's writer).
//
// At every barrier and at the end of the input it hands the committer one DynamicWriteResult with
// the files of every table it wrote since the last one. When a table's schema or spec changes
// under it, it closes that table's files first (they stay valid under the new schema: Iceberg
// matches columns by id) and reopens with the new shape. It keeps no state, as the IcebergSink's
// writer.
//
// What can go wrong: DestinationTables' errors (catalog, evolution), the template's errors (a
// missing or null field), the filter's, and the table writer's.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/stream/iceberg/write_rows/write_rows_spec.h"
#include "floe/stream/operator.h"

namespace floe::stream {

class DynamicWriter : public Operator {
 public:
  // A destination's buffered rows go to its writer once they reach kBufferRows or kBufferBytes (a
  // datagen or file source batch holds 4096 rows, so such a batch for one table passes straight
  // through). Once the oldest buffered slice is kBufferBatches input batches old, every
  // destination's rows go: slices share the buffers of their input batch, so this bounds the input
  // batches kept alive to about that many, and all destinations at once take each batch's rows in
  // one pass.
  static constexpr int64_t kBufferRows = 4096;
  static constexpr int64_t kBufferBytes = int64_t{4} << 20;
  static constexpr int64_t kBufferBatches = 64;

  explicit DynamicWriter(WriteRowsSpec spec);
  ~DynamicWriter() override;

  Status Open(const OperatorContext& context) override;
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id, Output& output) override;
  Status Finish(Output& output) override;

 private:
  struct TableWriter;
  // An input batch's rows and their order by destination (empty: as they are, one destination);
  // `sequence`: the batch's number in arrival order.
  struct Grouped {
    RecordBatch rows;
    std::vector<int64_t> order;
    int64_t sequence = 0;
  };
  // A destination's buffered rows of one input batch: the run [start, start + count) of its
  // order. Parts share their input batch, so buffering copies nothing; the parts of a destination
  // are gathered into one batch when they go to its writer.
  struct Part {
    std::shared_ptr<const Grouped> source;
    int64_t start;
    int64_t count;
  };
  // `bytes`: about what the rows hold, for the buffer's bound.
  Status WriteTo(const std::string& key, Part part, int64_t bytes);
  // Hands a destination's buffered rows to its writer as one batch.
  Status WritePending(TableWriter& state);
  // WritePending for every destination, dealing each buffered input batch out to them in one pass.
  Status WriteAllPending();
  Status WriteBatch(TableWriter& state, const RecordBatch& rows);
  Status Flush(int64_t checkpoint_id, Output& output);

  WriteRowsSpec spec_;
  OperatorContext context_;
  std::unique_ptr<DestinationTables> tables_;
  std::map<std::string, std::unique_ptr<TableWriter>, std::less<>> writers_;  // by key
  // Parquet page scratch shared by every table's files (this subtask writes one page at a time).
  std::shared_ptr<parquet::PageBuffers> page_buffers_ = std::make_shared<parquet::PageBuffers>();
  int64_t batches_seen_ = 0;
  int64_t buffer_flushes_ = 0;  // buffers handed to their writer (metric bufferFlushes)
  // Per batch: the rows' keys, and where each key's rows start in the batch's order (kept to
  // reuse their memory).
  RowKeys row_keys_;
  std::vector<int64_t> starts_;
  // 0, 1, 2, ...: the indices of parts whose rows are in order.
  std::vector<int64_t> identity_;
};

}  // namespace floe::stream
