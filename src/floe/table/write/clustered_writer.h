#pragma once

// Writes rows clustered by partition (all rows of a partition together, e.g. sorted input) with
// one open data file writer at a time: when the partition changes, the current one is closed.
// Memory stays one file's buffers whatever the number of partitions.
//
// What can go wrong: input that returns to a partition already closed fails with
// kInvalidArgument naming the partition (as Iceberg's ClusteredWriter does: the input was not
// clustered; use the fanout writer); partitioning and file writer errors.

#include <memory>
#include <unordered_set>
#include <vector>

#include "floe/table/write/data_file_writer.h"
#include "floe/table/write/partitioner.h"
#include "floe/table/write/writer_context.h"

namespace floe::table {

class ClusteredWriter {
 public:
  static Result<std::unique_ptr<ClusteredWriter>> Make(WriterContext context);

  Status Write(const RecordBatch& batch);
  Result<WriteResult> Close();

 private:
  explicit ClusteredWriter(WriterContext context) : context_(std::move(context)) {}
  Status Switch(uint32_t partition);
  Status CloseCurrent();

  WriterContext context_;
  std::unique_ptr<Partitioner> partitioner_;
  std::unique_ptr<DataFileWriter> current_;
  uint32_t current_id_ = 0;
  std::unordered_set<uint32_t> closed_;
  std::vector<uint32_t> partition_of_row_;
  WriteResult result_;
};

}  // namespace floe::table
