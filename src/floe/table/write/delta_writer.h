#pragma once

// Writes a changelog (rows with RowKinds) into a v2 table keyed by equality fields, the way
// Flink's Iceberg sink does (BaseEqualityDeltaWriter), one set of writers per partition:
//
//   +I, +U   insert the row; in upsert mode first delete its key
//   -U       delete the row (nothing in upsert mode: the +U that follows deletes the key)
//   -D       delete the row (upsert mode: delete its key)
//
// Deleting a key that this writer inserted earlier (same commit) writes a position delete of that
// earlier row (in a format v3 table a deletion vector of its data file: deletion_vector_writer.h),
// since an equality delete only applies to older commits; otherwise an equality
// delete is written: the key columns in upsert mode, the whole row otherwise. Inserting a key
// already inserted by this writer also deletes the earlier row by position. The writer remembers
// (file, position) of every key it inserted until Close, which ends one commit and frees every key
// map; the writer then takes the rows of the next commit with empty maps.
//
// Memory: with max_open_files, opening the files of one more partition first closes the data and
// equality delete files of the least recently written partition; its key map stays (a later
// delete or update of one of its keys is a position delete into the closed file, which commits
// with the rest). The key maps cannot be dropped before the commit: an equality delete does not
// apply to data files of its own commit, so an update of a forgotten key would leave both rows
// live. Open files are thus bounded; key maps grow with the distinct keys written in the current
// commit (43 to 85 bytes plus the key's bytes per key), position deletes with its updates, and
// both are freed at Close: between commits the writer holds no key memory.
//
// What can go wrong: Make fails (kInvalidArgument) without equality fields, for fields that are
// not top-level batch columns, or in upsert mode when a partition source is not an equality field
// (rows of one key must stay in one partition). Write fails on partitioning and file errors.

#include <memory>
#include <string>
#include <vector>

#include "floe/table/write/data_file_writer.h"
#include "floe/table/write/deletion_vector_writer.h"
#include "floe/table/write/equality_delete_writer.h"
#include "floe/table/write/inserted_keys.h"
#include "floe/table/write/partitioner.h"
#include "floe/table/write/position_delete_writer.h"
#include "floe/table/write/writer_context.h"

namespace floe::table {

class DeltaWriter {
 public:
  // max_open_files 0: no limit.
  static Result<std::unique_ptr<DeltaWriter>> Make(WriterContext context,
                                                   std::vector<int32_t> equality_ids, bool upsert,
                                                   size_t max_open_files = 0);
  ~DeltaWriter();

  Status Write(const RecordBatch& batch);
  Result<WriteResult> Close();

  // The keys the current commit's maps hold, and their memory (0 after Close).
  size_t inserted_keys() const;
  size_t key_memory_bytes() const;

  struct PartitionState;

 private:
  DeltaWriter() = default;
  Result<PartitionState*> State(uint32_t partition, const RecordBatch& batch);
  Status Insert(PartitionState& state, int64_t row);
  void Delete(PartitionState& state, int64_t row);
  void DeletePosition(PartitionState& state, const InsertedKeys::Location& location);
  Status Flush(PartitionState& state, const RecordBatch& batch);
  // Opens the partition's data and equality delete files, closing the least recently written
  // partition's first when max_open_files are open.
  Status OpenFiles(PartitionState& state, const RecordBatch& batch);
  Status CloseLeastRecentlyUsed(const RecordBatch& batch);

  WriterContext context_;
  std::vector<int32_t> equality_ids_;
  std::vector<int> key_columns_;
  bool upsert_ = false;
  SchemaPtr delete_schema_;
  BatchSchemaPtr delete_batch_schema_;
  std::unique_ptr<Partitioner> partitioner_;
  std::vector<std::unique_ptr<PartitionState>> states_;
  std::vector<PartitionState*> touched_;  // states with rows of the current batch
  size_t max_open_files_ = 0;
  size_t open_ = 0;
  uint64_t uses_ = 0;
  WriteResult closed_;  // files of partitions closed before Close
  std::vector<uint32_t> partition_of_row_;
  std::vector<int64_t> order_;  // the batch's rows, grouped by partition
  std::vector<std::string> keys_;
  std::vector<uint64_t> hashes_;
};

}  // namespace floe::table
