#pragma once

// What flows through a channel from one operator subtask to another: rows (a RecordBatch, whose
// rows carry their RowKind), messages that are not rows (for example the files a writer hands to
// its committer), checkpoint barriers, and the end of a bounded input.

#include <any>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>

#include "floe/batch/record_batch.h"

namespace floe::stream {

// Where the sources upstream of a barrier were when they took checkpoint N (SourceReader and
// SplitEnumerator::Position): "<source>" -> the enumerator's position, "<source>.<subtask>" -> a
// reader's. Everything downstream of the barrier came from before those positions.
using SourcePositions = std::map<std::string, std::string>;

// Everything emitted before the barrier of checkpoint N belongs to checkpoint N.
struct CheckpointBarrier {
  int64_t checkpoint_id = 0;
  int64_t timestamp_ms = 0;
  bool savepoint = false;
  // The positions of every source upstream (operators merge those of all their inputs); null
  // when no source reports one. Shared: barriers are copied once per channel.
  std::shared_ptr<const SourcePositions> positions;
};

// A value of an operator's own type, for operators that agree on it (std::any needs copyable
// values: share big ones through a shared_ptr).
struct Message {
  std::any value;
};

// The upstream subtask has emitted all it ever will (bounded inputs, batch mode). Carries the final
// positions of the sources upstream, as a barrier does (null when no source reports one), so that
// a commit at the end of the input can record them too.
struct EndOfInput {
  std::shared_ptr<const SourcePositions> positions;
};

using StreamElement = std::variant<RecordBatch, Message, CheckpointBarrier, EndOfInput>;

}  // namespace floe::stream
