#pragma once

// Sources, in the FLIP-27 design that Flink's IcebergSource uses: one SplitEnumerator per source
// discovers work (splits) and hands it to the source's parallel SourceReaders, which turn splits
// into batches. Simple sources (datagen, a collection) may have an enumerator that does nothing and
// readers that split the work among themselves by subtask index.
//
// Threads: the enumerator runs on the job's coordinator thread, each reader on its subtask's
// thread; neither needs locks. Splits are values of the source's own type (std::any): the reader
// serialises the splits it holds into its state.
//
// Checkpoint N of a source: the runtime snapshots the enumerator, then sends the barrier into each
// reader; a reader snapshots itself (its unfinished splits and its position in them) and the
// barrier follows the batches it emitted before. Splits the enumerator assigns between its snapshot
// and a reader's barrier are held back until that reader has taken its snapshot, so that every
// split is in exactly one of the two snapshots: nothing is read twice or lost after a restore.

#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/stream/operator.h"

namespace floe::stream {

class SplitEnumeratorContext {
 public:
  virtual ~SplitEnumeratorContext() = default;
  virtual int parallelism() const = 0;
  // Subtasks that have asked for splits and got none since.
  virtual std::vector<int> WaitingReaders() const = 0;
  virtual void AssignSplits(int subtask, std::vector<std::any> splits) = 0;
  // The reader gets no more splits: once its splits are done it ends (bounded sources).
  virtual void SignalNoMoreSplits(int subtask) = 0;
};

class SplitEnumerator {
 public:
  virtual ~SplitEnumerator() = default;
  // `restored_state` is what SnapshotState returned in the checkpoint the job resumes from.
  virtual Status Start(SplitEnumeratorContext& context,
                       std::optional<std::string> restored_state) = 0;
  // A reader asks for work (it may ask again before it gets any).
  virtual Status HandleSplitRequest(int subtask) = 0;
  // Called about every 100 ms on the coordinator thread: time to discover new work (streaming).
  virtual Status Tick(int64_t /*now_ms*/) { return {}; }
  virtual Result<std::string> SnapshotState(int64_t checkpoint_id) = 0;
  virtual Status NotifyCheckpointComplete(int64_t /*checkpoint_id*/) { return {}; }
  // Where the enumerator is as of its last SnapshotState, in a form a user can act on (the last
  // snapshot enumerated, say); nullopt when it has nothing to tell. Carried by the checkpoint's
  // barriers to sinks, which record it with their commits.
  virtual std::optional<std::string> Position() const { return std::nullopt; }
};

class SourceReaderContext {
 public:
  virtual ~SourceReaderContext() = default;
  // Asks the enumerator for work; the answer arrives later through AddSplits or
  // NotifyNoMoreSplits, on the reader's thread, between two PollNext calls.
  virtual void RequestSplit() = 0;
};

enum class PollStatus {
  kMoreAvailable,  // call again soon
  kNothingNow,     // nothing to read at the moment: the runtime waits for splits or a short while
  kEnd,            // this reader is done for good
};

class SourceReader {
 public:
  virtual ~SourceReader() = default;
  // context.restored_state holds the reader's share of the restored state.
  virtual Status Open(const OperatorContext& context, SourceReaderContext& reader_context) = 0;
  virtual void AddSplits(std::vector<std::any> splits) = 0;
  virtual void NotifyNoMoreSplits() = 0;
  // Emits at most about one batch per call, so that barriers are not held up.
  virtual Result<PollStatus> PollNext(Output& output) = 0;
  virtual Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id) = 0;
  virtual Status NotifyCheckpointComplete(int64_t /*checkpoint_id*/) { return {}; }
  // Where the reader is as of its last SnapshotState (rows emitted, file and row...); nullopt
  // when it has nothing to tell. See SplitEnumerator::Position.
  virtual std::optional<std::string> Position() const { return std::nullopt; }
};

// The positions of a source's reader subtasks that a sink committed with its data, newest commit
// first (the values of SourceReader::Position). The sink reads them when called.
using CommittedPositions = std::function<Result<std::vector<std::string>>()>;

class Source {
 public:
  virtual ~Source() = default;
  virtual BatchSchemaPtr schema() const = 0;
  // A bounded source ends by itself; batch mode needs every source bounded.
  virtual bool bounded() const = 0;
  virtual Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() = 0;
  virtual Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) = 0;
  // A sink downstream offers what it committed of this source's positions (when it is added to
  // the job graph). A source that can resume from them calls `positions` on a fresh start (no
  // checkpoint to restore) and starts after them; others ignore the offer.
  virtual void ResumeFromCommitted(CommittedPositions /*positions*/) {}
};

}  // namespace floe::stream
