#pragma once

// IcebergSource's reader: reads the splits the enumerator assigns, one at a time, through the
// table layer's TaskReader (projection, deletes, residual filter), and emits their rows as +I or
// -D batches (iceberg_split.h). It asks for the next split when it has none left.
//
// State: one entry per unfinished split — the split and how many rows of it were already emitted
// — so that a restored reader (any subtask, any parallelism) skips exactly those rows; and, with a
// limit, one entry with the rows emitted so far. Reading a split is deterministic (same files,
// same order), which is what makes the row count a position.
//
// Limit: the reader stops once it emitted `limit` rows, cutting the last batch. The enumerator
// sends every split to subtask 0 when a limit is set, so this is a limit per job; after a restore
// with another parallelism the count of the old subtask 0 goes to whichever reader receives its
// entry.
//
// Memory: one batch at a time, except for a diff split, which holds both reads of its data file;
// and the equality-delete sets, shared by the source's readers (table::EqualityDeleteCache).
//
// Errors: the task reader's (naming the file), a malformed restored entry (kInvalidArgument).

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/stream/iceberg/iceberg_split.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/stream/source.h"
#include "floe/table/scan/task_reader.h"

namespace floe::stream {

// What every reader of one source shares: the table's schema the read is planned against, the
// columns to produce and the filter (bound to that schema) for tasks without a residual.
struct SourceReadSpec {
  TableLoader loader;
  SchemaPtr table_schema;
  SchemaPtr projected;
  expr::ExprPtr bound_filter;
  std::optional<int64_t> limit;
  int64_t batch_rows = 8192;
  // The equality-delete sets, read once for all readers (subtasks) of the source.
  std::shared_ptr<table::EqualityDeleteCache> equality_deletes =
      std::make_shared<table::EqualityDeleteCache>();
};

class IcebergSourceReader final : public SourceReader {
 public:
  explicit IcebergSourceReader(std::shared_ptr<const SourceReadSpec> spec);
  ~IcebergSourceReader() override;

  Status Open(const OperatorContext& context, SourceReaderContext& reader_context) override;
  void AddSplits(std::vector<std::any> splits) override;
  void NotifyNoMoreSplits() override;
  Result<PollStatus> PollNext(Output& output) override;
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id) override;

 private:
  class Cursor;
  struct Held {
    IcebergSplitPtr split;
    int64_t emitted = 0;  // rows of it emitted before (restored)
  };

  Status Restore(const std::vector<std::string>& entries);

  std::shared_ptr<const SourceReadSpec> spec_;
  SourceReaderContext* reader_context_ = nullptr;
  MetricGroup* metrics_ = nullptr;
  std::string files_read_metric_;  // "<operator>.<subtask>.filesRead"
  std::shared_ptr<table::Table> table_;
  std::unique_ptr<table::TaskReader> task_reader_;
  std::deque<Held> queue_;
  std::unique_ptr<Cursor> cursor_;
  bool requested_ = false;
  bool no_more_splits_ = false;
  int64_t limit_emitted_ = 0;
};

}  // namespace floe::stream
