#pragma once

// FileIO kept in memory, for tests: the same semantics as LocalFileIO (folders, exclusive create,
// no-replace rename, errors of the same kinds) without touching the disk. Thread-safe; InputFiles
// and FileWriters stay valid after the file is deleted or renamed, like open descriptors do.
//
// Locations are any strings; file: URIs name the same entries as their plain paths, and locations
// are normalized (location.h) so "/a//b/" and "/a/b" are one entry. Syncs do nothing: everything
// written is immediately "durable".

#include <memory>

#include "floe/io/file_io.h"

namespace floe::io {

class MemoryFileIO : public FileIO {
 public:
  MemoryFileIO();
  ~MemoryFileIO() override;
  MemoryFileIO(const MemoryFileIO&) = delete;
  MemoryFileIO& operator=(const MemoryFileIO&) = delete;

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) override;
  Result<FileEntry> GetInfo(std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileEntry>> List(std::string_view folder) override;
  Status CreateDirectories(std::string_view folder) override;
  Status Rename(std::string_view from, std::string_view to) override;
  Status RenameNoReplace(std::string_view from, std::string_view to) override;
  Status SyncDirectory(std::string_view folder) override;

  // The entries, shared with the OutputFiles handed out (defined in the .cc).
  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace floe::io
