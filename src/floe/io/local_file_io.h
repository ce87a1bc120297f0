#pragma once

// FileIO over the local filesystem with POSIX calls. Locations are plain paths or file: URIs (see
// location.h); any other scheme is kUnsupported. Errors carry the path and the errno text:
// kNotFound for ENOENT, kAlreadyExists for EEXIST, kIO for the rest.
//
// RenameNoReplace uses renameat2(RENAME_NOREPLACE); on filesystems without it, it falls back to
// link() then unlink(), which is just as exclusive but leaves both names behind if the process dies
// between the two calls or the unlink fails (the source is a temporary file, so that costs garbage,
// never correctness: once the link is made the rename counts as done).

#include <memory>

#include "floe/io/file_io.h"

namespace floe::io {

class LocalFileIO : public FileIO {
 public:
  struct Options {
    // Tests turn this off to exercise the link()+unlink() fallback of RenameNoReplace.
    bool use_renameat2 = true;
  };

  LocalFileIO() = default;
  explicit LocalFileIO(Options options) : options_(options) {}

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) override;
  Result<FileEntry> GetInfo(std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileEntry>> List(std::string_view folder) override;
  Status CreateDirectories(std::string_view folder) override;
  Status Rename(std::string_view from, std::string_view to) override;
  Status RenameNoReplace(std::string_view from, std::string_view to) override;
  Status SyncDirectory(std::string_view folder) override;

 private:
  Options options_;
};

}  // namespace floe::io
