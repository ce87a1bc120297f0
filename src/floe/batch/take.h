#pragma once

// Gathers rows of an array or batch by index, in the order given (repeats allowed): how writers
// regroup a batch's rows by partition with one pass instead of one per partition. TakeBatches
// gathers from several batches of one schema at once, so rows spread over many input batches are
// copied once (a many-table writer's buffered rows), not gathered and then joined. Flat columns
// are copied with typed loops; lists and maps gather the child rows of their entries; structs
// gather each field. Indices must lie in [0, length): a bad index fails (kInvalidArgument) before
// anything is copied.

#include <cstdint>
#include <span>
#include <vector>

#include "floe/batch/array.h"
#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe {

// The order that groups rows by group (a counting sort, stable): `order` gets the row indices
// group after group, each group's in row order, and `starts` (groups + 1 entries) where each
// group's run begins and, last, the row count. Every id in `group_of_row` must be below `groups`.
void GroupRows(std::span<const uint32_t> group_of_row, size_t groups, std::vector<int64_t>& starts,
               std::vector<int64_t>& order);

// kInvalidArgument unless every row lies in [0, num_rows).
Status CheckRows(std::span<const int64_t> rows, int64_t num_rows);

Result<Array> TakeArray(const Array& array, std::span<const int64_t> indices);
// Row kinds, when the batch has them, are gathered alike.
Result<RecordBatch> TakeBatch(const RecordBatch& batch, std::span<const int64_t> indices);

// Rows `indices` of `batch`, one part of a TakeBatches result.
struct TakeSource {
  const RecordBatch* batch;
  std::span<const int64_t> indices;
};
// The sources' rows, source after source, in one batch of their schema. The batches must have
// equal schemas (kInvalidArgument otherwise); row kinds are kept when any batch has them.
Result<RecordBatch> TakeBatches(std::span<const TakeSource> sources);

// A row that goes to no group.
inline constexpr uint32_t kNoGroup = UINT32_MAX;

// A batch's rows and the group of each (group_of_row[i] for row i: below the groups count, or
// kNoGroup for a row that goes nowhere).
struct PartitionSource {
  const RecordBatch* batch;
  std::span<const uint32_t> group_of_row;
};
// The sources' rows dealt out to `groups` batches (one per group, empty when it has no rows):
// each group's rows source after source, in row order within a source. Each source column is read
// once, in order, whatever the number of groups: gathering each group's rows instead reads every
// cache line of the sources once per group with a row in it, which is the cost of a writer of many
// tables whose buffered batches have left the cache. Flat columns are dealt out directly; lists,
// maps and structs are gathered per group. The batches must have equal schemas and every id lie
// below `groups` (kInvalidArgument otherwise); row kinds are kept when any batch has them.
Result<std::vector<RecordBatch>> PartitionBatches(std::span<const PartitionSource> sources,
                                                  size_t groups);

}  // namespace floe
