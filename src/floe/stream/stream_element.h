#pragma once

// What flows through a channel from one operator subtask to another: rows (a RecordBatch, whose
// rows carry their RowKind), messages that are not rows (for example the files a writer hands to
// its committer), checkpoint barriers, and the end of a bounded input.

#include <any>
#include <cstdint>
#include <variant>

#include "floe/batch/record_batch.h"

namespace floe::stream {

// Everything emitted before the barrier of checkpoint N belongs to checkpoint N.
struct CheckpointBarrier {
  int64_t checkpoint_id = 0;
  int64_t timestamp_ms = 0;
  bool savepoint = false;
};

// A value of an operator's own type, for operators that agree on it (std::any needs copyable
// values: share big ones through a shared_ptr).
struct Message {
  std::any value;
};

// The upstream subtask has emitted all it ever will (bounded inputs, batch mode).
struct EndOfInput {};

using StreamElement = std::variant<RecordBatch, Message, CheckpointBarrier, EndOfInput>;

}  // namespace floe::stream
