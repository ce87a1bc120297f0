#pragma once

// A FileIO wrapper for tests that makes chosen operations fail, to check that callers (commits,
// writers, checkpoints) survive every failure point. Each operation kind is counted. A fault is
// armed for the nth operation of a kind from now on, optionally only on locations containing some
// text, and either fails that operation (it does not happen and returns kIO; later operations run
// normally) or crashes at it: the operation does not happen, returns kIO, and so does every later
// operation on this wrapper and on every file opened through it, as if the process had died. A test
// then looks at the wrapped FileIO and checks what a restarted process would find.
//
// A crash models a process dying, not the machine: what reached the wrapped FileIO stays. Bytes a
// FileWriter buffered but never flushed (Sync/Close) may be lost, as in a real crash. Thread-safe.

#include <cstdint>
#include <memory>
#include <string>

#include "floe/io/file_io.h"

namespace floe::io {

enum class FileOp : uint8_t {
  kOpen,               // NewInputFile
  kRead,               // InputFile::ReadAt
  kCreate,             // OutputFile::Create and CreateOrOverwrite
  kWrite,              // FileWriter::Write
  kSync,               // FileWriter::Sync
  kClose,              // FileWriter::Close
  kGetInfo,            // GetInfo (and so Exists)
  kDelete,             // Delete
  kList,               // List
  kCreateDirectories,  // CreateDirectories
  kRename,             // Rename and RenameNoReplace
  kSyncDirectory,      // SyncDirectory
};
inline constexpr int kFileOpCount = 12;

std::string_view FileOpName(FileOp op);

enum class FaultAction : uint8_t {
  kFail,   // the operation does not happen and returns kIO
  kCrash,  // the operation does not happen, returns kIO, and so does everything after it
  // Like kCrash, but a Write first lands half of its bytes in the file (flushed), as a process
  // dying mid-write leaves a torn record. On operations other than kWrite it is a kCrash.
  kCrashTornWrite,
};

struct Fault {
  FileOp op = FileOp::kWrite;
  // Which matching operation, counted from when the fault is injected: 1 is the next one.
  int64_t nth = 1;
  FaultAction action = FaultAction::kFail;
  // When not empty, only operations whose location contains this text match (for renames, either
  // location).
  std::string location_contains;
};

class FaultInjectingFileIO : public FileIO {
 public:
  explicit FaultInjectingFileIO(std::shared_ptr<FileIO> base);
  ~FaultInjectingFileIO() override;
  FaultInjectingFileIO(const FaultInjectingFileIO&) = delete;
  FaultInjectingFileIO& operator=(const FaultInjectingFileIO&) = delete;

  // Arms a fault; each fires once. Several may be armed at a time.
  void Inject(Fault fault);
  // Disarms all faults that have not fired (a crash that happened stays).
  void ClearFaults();

  // Operations of a kind attempted since construction, including failed and refused ones.
  int64_t count(FileOp op) const;
  // Faults that have fired.
  int64_t faults_fired() const;
  bool crashed() const;

  const std::shared_ptr<FileIO>& base() const { return base_; }

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) override;
  Result<FileEntry> GetInfo(std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileEntry>> List(std::string_view folder) override;
  Status CreateDirectories(std::string_view folder) override;
  Status Rename(std::string_view from, std::string_view to) override;
  Status RenameNoReplace(std::string_view from, std::string_view to) override;
  Status SyncDirectory(std::string_view folder) override;

  // Shared with the files opened through this wrapper, which may outlive it.
  class Injector;

 private:
  std::shared_ptr<FileIO> base_;
  std::shared_ptr<Injector> injector_;
};

}  // namespace floe::io
