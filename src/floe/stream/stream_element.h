#pragma once

// What flows through a channel from one operator subtask to another: rows (a RecordBatch, whose
// rows carry their RowKind), messages that are not rows (for example the files a writer hands to
// its committer), watermarks (event time), checkpoint barriers, and the end of a bounded input.

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

// Event time on this channel has reached `timestamp_ms` (milliseconds since the epoch): rows
// whose time attribute is at or before it may still follow, but are late. A channel's watermarks
// never go back. `idle`: the channel has nothing to send for now and must hold nobody back; it
// counts again from its next watermark that is not idle.
struct Watermark {
  int64_t timestamp_ms = 0;
  bool idle = false;
};

using StreamElement = std::variant<RecordBatch, Message, Watermark, CheckpointBarrier, EndOfInput>;

}  // namespace floe::stream
