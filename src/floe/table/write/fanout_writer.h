#pragma once

// Writes rows in any order into the data files of their partitions, keeping one open data file
// writer per partition seen (for unsorted input; memory grows with the number of partitions, one
// buffered row group each). Rows of one batch are grouped by partition into one order of row
// indices, and each partition's writer takes its run of that order straight from the batch (a
// slice when the partition's rows are contiguous): rows are copied once, into the files' pages.
// With max_open_files set, opening one more partition first closes the least recently written
// one (its rows so far become finished files, and rows that come later start a new file): memory
// then stays within max_open_files buffered files, at the price of more, smaller files.
//
// What can go wrong: batches whose schema differs from the context's, partitioning errors (see
// Partitioner), and file writer errors.

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/table/write/data_file_writer.h"
#include "floe/table/write/partitioner.h"
#include "floe/table/write/writer_context.h"

namespace floe::table {

class FanoutWriter {
 public:
  // max_open_files 0: no limit.
  static Result<std::unique_ptr<FanoutWriter>> Make(WriterContext context,
                                                    size_t max_open_files = 0);

  Status Write(const RecordBatch& batch);
  Result<WriteResult> Close();

 private:
  explicit FanoutWriter(WriterContext context) : context_(std::move(context)) {}
  Result<DataFileWriter*> WriterFor(uint32_t partition);
  Status CloseLeastRecentlyUsed();

  WriterContext context_;
  std::unique_ptr<Partitioner> partitioner_;              // null when unpartitioned
  std::vector<std::unique_ptr<DataFileWriter>> writers_;  // by partition id
  std::vector<uint64_t> last_use_;                        // by partition id
  uint64_t uses_ = 0;
  size_t open_ = 0;
  size_t max_open_files_ = 0;
  std::vector<manifest::DataFile> closed_files_;  // of partitions closed to bound memory
  // Per batch (kept to reuse their memory): each row's partition id, then its partition's number
  // in the batch; the ids by number; each id's number (kNotSeen outside a batch); where each
  // number's rows begin in the rows' order by partition, and that order (GroupRows).
  static constexpr uint32_t kNotSeen = UINT32_MAX;
  std::vector<uint32_t> partition_of_row_;
  std::vector<uint32_t> seen_;
  std::vector<uint32_t> index_of_id_;
  std::vector<int64_t> starts_;
  std::vector<int64_t> order_;
};

}  // namespace floe::table
