#pragma once

// The writer operator of WriteRows (one per writer subtask): splits each batch by destination,
// makes sure each destination's table exists and takes the rows (DestinationTables), and writes
// them through one IcebergSinkWriter per table, the IcebergSink's writer, so that files, names,
// row kinds and upserts behave exactly as there. Batches may carry columns other than the
// stream's (a new column, a wider type): that is how rows evolve a table's schema.
//
// At every barrier and at the end of the input it hands the committer one DynamicWriteResult with
// the files of every table it wrote since the last one. When a table's schema or spec changes
// under it, it closes that table's files first (they stay valid under the new schema: Iceberg
// matches columns by id) and reopens with the new shape. It keeps no state, as the IcebergSink's
// writer.
//
// What can go wrong: DestinationTables' errors (catalog, evolution), the template's errors (a
// missing or null field), the filter's, and the table writer's.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/stream/iceberg/write_rows/write_rows_spec.h"
#include "floe/stream/operator.h"

namespace floe::stream {

class DynamicWriter : public Operator {
 public:
  explicit DynamicWriter(WriteRowsSpec spec);
  ~DynamicWriter() override;

  Status Open(const OperatorContext& context) override;
  Status ProcessBatch(int input, RecordBatch batch, Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id, Output& output) override;
  Status Finish(Output& output) override;

 private:
  struct TableWriter;
  Status WriteTo(const std::string& key, const RecordBatch& rows);
  Status Flush(int64_t checkpoint_id, Output& output);

  WriteRowsSpec spec_;
  OperatorContext context_;
  std::unique_ptr<DestinationTables> tables_;
  std::map<std::string, std::unique_ptr<TableWriter>, std::less<>> writers_;  // by key
  std::vector<std::string> keys_;
};

}  // namespace floe::stream
