#pragma once

// Where a job's checkpoints and savepoints live: one folder per checkpoint under
// <checkpoint_dir>/<job name>/, holding the state of every operator subtask and, written last,
// a completion record. A checkpoint without a valid completion record does not exist. The
// on-disk format (lengths and CRC-32C on every record) is specified in docs/formats/checkpoint.md.
//
// What can go wrong: I/O errors (the checkpoint is then not complete, and the previous one stays
// the latest); corrupt or truncated files (kCorruptData naming the file and offset; LoadLatest
// falls back to the newest checkpoint that is intact, and says which ones it skipped; when every
// checkpoint it found is corrupt it fails rather than let the job start afresh).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::io {
class FileIO;
}

namespace floe::stream {

// The state of one operator: per subtask of the job that wrote it, that subtask's entries.
struct OperatorState {
  std::vector<std::vector<std::string>> subtasks;
};

struct CompletedCheckpoint {
  int64_t checkpoint_id = 0;
  int64_t timestamp_ms = 0;
  bool savepoint = false;
  std::string job_name;
  std::string location;  // the folder it was written to or read from
  // By operator name. A source's enumerator is an operator named "<source name>#enumerator" with
  // one subtask.
  std::map<std::string, OperatorState> operators;
};

class CheckpointStorage {
 public:
  // Checkpoints of job `job_name` under `checkpoint_dir`; keeps the newest `retained` complete
  // checkpoints (savepoints are never deleted by the runtime).
  static Result<std::unique_ptr<CheckpointStorage>> Open(io::FileIO& io, std::string checkpoint_dir,
                                                         std::string job_name, int retained);
  ~CheckpointStorage();

  // Writes the checkpoint durably: state files first, then the completion record (fsynced,
  // atomically renamed into place); then deletes checkpoints beyond `retained`.
  Status Write(const CompletedCheckpoint& checkpoint);
  // A savepoint of the same content into `folder` (absolute); returns its location.
  Result<std::string> WriteSavepoint(const CompletedCheckpoint& checkpoint, std::string folder);
  // The newest complete checkpoint of the job, or nullopt when it has none.
  Result<std::optional<CompletedCheckpoint>> LoadLatest();
  // A checkpoint or savepoint folder given by the user.
  Result<CompletedCheckpoint> Load(const std::string& location);
  // The id the next checkpoint of this job must use: above every id ever written (complete or not).
  Result<int64_t> NextCheckpointId();

  // Why the last LoadLatest passed over newer checkpoints (each error names the file and offset).
  const std::vector<Error>& skipped() const;

 private:
  struct Impl;
  explicit CheckpointStorage(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::stream
