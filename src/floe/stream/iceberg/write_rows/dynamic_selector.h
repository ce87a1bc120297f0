#pragma once

// How WriteRows routes rows to its writer subtasks when distribution is HASH (one selector per
// upstream subtask):
//   - direct write: a batch of at most direct_write_byte_limit bytes goes whole to the writer of
//     the upstream subtask's own index (no shuffle, as Beam's bundles under the limit are written
//     by the task holding them); larger batches take the shuffle below. 0 turns this off.
//   - hash: each row goes to the writer its (destination, partition) hashes to, the partition
//     computed from the destination's partition fields by the table layer's Partitioner, so each
//     partition of each table is written by one writer.
//   - autosharding: the selector counts the rows it has seen per (destination, partition) and
//     spreads a key over as many writers as its share of the volume is worth (a key with 90% of the
//     rows over 90% of the writers, at least one), dealing its rows round-robin; keys with less
//     than one writer's worth stay on one writer, so their files do not get smaller. No key is
//     split before 1024 rows were seen; counts decay (halved past 2^20 rows) so that the shares
//     follow a changing stream.
//   - upsert destinations (equality fields): their rows go by (destination, equality field
//     values), never split or written directly, so that all rows of one key reach one writer and
//     its equality deletes find the rows they replace. With NONE distribution (by_partition
//     false) only these rows move; the others stay with the writer of the upstream subtask's
//     index, as Flink keys an upsert sink by its equality fields.
//
// What can go wrong: the destinations' errors (template fields), bad partition fields.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "floe/stream/exchange.h"
#include "floe/stream/iceberg/write_rows/write_rows_spec.h"

namespace floe::table {
class Partitioner;
}

namespace floe::stream {

struct DynamicSelectorOptions {
  int64_t direct_write_byte_limit = 0;
  bool autosharding = false;
  bool by_partition = true;  // HASH; false: NONE, only upsert destinations' rows are keyed
};

class DynamicChannelSelector : public ChannelSelector {
 public:
  DynamicChannelSelector(WriteRowsSpec spec, DynamicSelectorOptions options, int upstream_subtask);
  ~DynamicChannelSelector() override;

  Status SelectChannels(const RecordBatch& batch, int num_channels,
                        std::vector<int32_t>& channels) override;

  // The approximate bytes a batch holds (its buffers), for the direct-write limit.
  static int64_t BatchBytes(const RecordBatch& batch);

 private:
  struct KeyPartitioner;
  Result<KeyPartitioner*> PartitionerFor(const std::string& key, const RecordBatch& rows);

  WriteRowsSpec spec_;
  DynamicSelectorOptions options_;
  int upstream_subtask_;
  std::map<std::string, std::unique_ptr<KeyPartitioner>, std::less<>> partitioners_;
  RowKeys row_keys_;
  std::vector<uint32_t> partition_of_row_;
  std::vector<uint64_t> row_hash_;
  std::vector<uint64_t> key_hash_;
  std::vector<bool> keyed_;  // per row: an upsert destination's, never split
  // Autosharding: rows seen per (destination, partition) hash, and the round-robin position.
  std::unordered_map<uint64_t, int64_t> volume_;
  std::unordered_map<uint64_t, uint32_t> next_shard_;
  int64_t total_ = 0;
};

}  // namespace floe::stream
