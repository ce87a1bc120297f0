#pragma once

// The ranking behind exec::Rank, exposed so that tests can drive one subtask by hand
// (stream/operator_test_harness.h): through a snapshot and a restore, and past the state TTL.
//
// State: per subtask, in memory, a hash map from a partition's key (its cells encoded) to the
// rows it ranks (at most the limit, more with RANK's ties; every row in batch mode without a
// limit), each held as its encoded cells with its order-key cells beside it. The partitions go
// into each checkpoint as one entry per subtask, with the last watermark; restoring at another
// parallelism is refused, since the partitions would no longer be in the subtask their keys hash
// to.

#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {

// Checks `spec` against `input` and gives the output schema (input columns, then the rank).
Result<BatchSchemaPtr> RankSchema(const BatchSchema& input, const RankSpec& spec);

stream::OperatorFactory RankOperatorFactory(BatchSchemaPtr input, BatchSchemaPtr output,
                                            RankSpec spec);

}  // namespace floe::sql::exec
