#pragma once

// The hash aggregation behind exec::Aggregate, exposed so that tests can drive one subtask by
// hand (stream/operator_test_harness.h), e.g. through a snapshot and a restore.
//
// State: per subtask, in memory, a hash table of groups (aggregate_index_internal.h) whose keys
// (aggregate_keys_internal.h) and accumulators (aggregate_calls_internal.h) are held column by
// column by group id. MIN/MAX in streaming mode keep every value of the group with its multiplicity
// (so that a retraction can reveal the next one), and DISTINCT calls keep the groups' distinct
// values. The live groups go into each checkpoint as one entry per subtask; restoring at another
// parallelism is refused, since the groups would no longer be in the subtask their keys hash to.
// Streaming groups whose rows were all retracted are dropped, and their slots reclaimed once they
// outnumber the live groups. A streaming window aggregate also keeps each group's window end, a
// queue of groups by window end, and its last watermark (in its checkpoint entry, so that rows
// late before a restart stay late after it).

#include <vector>

#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {

// Checks the calls against `input` and gives the output schema (group columns, then calls).
Result<BatchSchemaPtr> AggregateSchema(const BatchSchema& input,
                                       const std::vector<int>& group_columns,
                                       const std::vector<AggregateCall>& calls);

// `window_end` >= 0: a window aggregate (WindowAggregate) whose input column `window_end` holds
// each row's window end.
stream::OperatorFactory AggregateOperatorFactory(BatchSchemaPtr input, BatchSchemaPtr output,
                                                 std::vector<int> group_columns,
                                                 std::vector<AggregateCall> calls,
                                                 int window_end = -1);

}  // namespace floe::sql::exec
