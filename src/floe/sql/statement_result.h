#pragma once

// What running one statement gives the client: a message ("[INFO] Execute statement
// succeeded."), rows to show, or a job that keeps running. Rows come through a RowStream that the
// client pulls until it ends, so a streaming SELECT shows its changes as they happen and a large
// batch result never has to be held whole.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe::sql {

// How far a running job has got, for the client's progress line.
struct JobProgress {
  int64_t rows = 0;  // rows a query has returned so far, or a write has written
  int64_t files_read = 0;
  int64_t files_written = 0;
};

// A source of result batches. Next blocks until a batch is ready; nullopt means the end. Cancel
// may be called from another thread (Ctrl-C): Next then returns kCancelled or the end soon.
class RowStream {
 public:
  virtual ~RowStream() = default;
  virtual Result<std::optional<RecordBatch>> Next() = 0;
  virtual void Cancel() = 0;
  // Thread-safe: the rows Next has returned and the files the job behind them has read so far.
  virtual JobProgress Progress() const { return {}; }
};

// Batches already in memory (SHOW, DESCRIBE, metadata tables, small results).
class InMemoryRows final : public RowStream {
 public:
  explicit InMemoryRows(std::vector<RecordBatch> batches) : batches_(std::move(batches)) {}
  Result<std::optional<RecordBatch>> Next() override;
  void Cancel() override {}

 private:
  std::vector<RecordBatch> batches_;
  size_t next_ = 0;
};

struct StatementResult {
  enum class Kind : unsigned char {
    kMessage,  // only `message`
    kRows,     // `schema` and `rows`
    kJob,      // a job started in the background: `job_id`, and `message`
    kQuit,     // QUIT: the client ends
  };
  Kind kind = Kind::kMessage;
  std::string message;
  // kRows: the result's columns. Their names are what the header shows; the Flink type of each
  // (for DESCRIBE-like views) is the client's to derive.
  BatchSchemaPtr schema;
  std::unique_ptr<RowStream> rows;
  // kRows: the rows are a change stream (a streaming query): batches carry row kinds and the
  // tableau form adds the `op` column.
  bool changelog = false;
  std::string job_id;

  static StatementResult Message(std::string text);
  static StatementResult Rows(BatchSchemaPtr schema, std::unique_ptr<RowStream> rows,
                              bool changelog = false);
  // A table of strings, e.g. SHOW DATABASES: one column per name, one row per vector.
  static Result<StatementResult> StringTable(const std::vector<std::string>& columns,
                                             const std::vector<std::vector<std::string>>& rows);
};

inline constexpr std::string_view kStatementSucceeded = "[INFO] Execute statement succeeded.";

}  // namespace floe::sql
