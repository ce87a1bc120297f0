#pragma once

// Sinks that show what a stream carries: CollectedBatches keeps every batch in memory (tests, the
// SQL client's result view), the print sink writes each row as a line, as Flink's print connector
// does: "+I[1, a]", the row kind then the fields (null as "null", strings as they are).
//
// Neither takes part in exactly-once: after a restart they see again the rows replayed since the
// last checkpoint. CollectedBatches grows without bound: collect bounded streams only.

#include <cstdint>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/operator.h"

namespace floe::stream {

// A row in Flink's text form: "+I[1, a, null]".
std::string FormatRow(const RecordBatch& batch, int64_t row);

// Thread-safe.
class CollectedBatches {
 public:
  void Add(RecordBatch batch);
  // The batches in arrival order, each with its row kinds.
  std::vector<RecordBatch> batches() const;
  int64_t num_rows() const;
  // Every row as FormatRow gives it, in arrival order.
  std::vector<std::string> RowLines() const;

 private:
  mutable std::mutex mutex_;
  std::vector<RecordBatch> batches_;
  int64_t num_rows_ = 0;
};

OperatorFactory CollectSinkFactory(std::shared_ptr<CollectedBatches> collected);

// Writes every row of `stream` to `out` (which must outlive the job), one line each, from one
// subtask so that lines never interleave.
void PrintTo(const DataStream& stream, std::string name, std::ostream& out);

}  // namespace floe::stream
