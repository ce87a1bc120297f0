#pragma once

// The narrow interface every other layer uses to touch storage (like LevelDB's Env): open a file
// for random-access reads, create a file and stream bytes into it, list, delete, and the two atomic
// steps commits are built on (a rename that never replaces, and an atomic whole-file write).
//
// Locations are strings. LocalFileIO takes plain paths and `file:` / `file://` URIs; MemoryFileIO
// takes any string; FaultInjectingFileIO wraps either for tests. All implementations are safe to
// share between threads; an InputFile may be read by several threads at once, a FileWriter by one
// at a time.
//
// Errors: kNotFound (the file or folder is missing), kAlreadyExists (Create, RenameNoReplace or a
// no-overwrite atomic write found the target present), kIO (the system refused: message has the
// location and the errno text), kCorruptData (a read ran past the end of the file),
// kInvalidArgument (a malformed location, a negative offset, writing to a closed writer),
// kUnsupported (a location scheme the implementation does not serve).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::io {

// A file opened for random-access reads. Concurrent ReadAt calls are safe.
class InputFile {
 public:
  virtual ~InputFile() = default;

  // The location as given to FileIO::NewInputFile.
  virtual const std::string& location() const = 0;

  // The size in bytes, as of when the file was opened.
  virtual Result<int64_t> Size() const = 0;

  // Reads exactly out.size() bytes starting at offset (like pread). Returns out.size(), or
  // kCorruptData naming the file and offset when the file ends first, or kInvalidArgument for a
  // negative offset.
  virtual Result<size_t> ReadAt(int64_t offset, std::span<std::byte> out) const = 0;

  // The whole content.
  Result<std::string> ReadAll() const;
};

// A stream of bytes being written to a new file. Not thread-safe. Writes may be buffered: bytes are
// known to be in the file only once Sync() or Close() succeeded, and a write error may surface at a
// later Write, Sync or Close (after which the writer keeps failing). Destroying an unclosed writer
// abandons it, like a process dying: any prefix of the written bytes may remain. Durability needs
// Sync() before Close() (and FileIO::SyncDirectory for the file's name).
class FileWriter {
 public:
  virtual ~FileWriter() = default;

  virtual const std::string& location() const = 0;

  // Appends all of data.
  virtual Status Write(std::span<const std::byte> data) = 0;
  Status Write(std::string_view data) { return Write(std::as_bytes(std::span(data))); }

  // Flushes written bytes to the file and to stable storage (fsync).
  virtual Status Sync() = 0;

  // Flushes written bytes to the file (without fsync) and releases it. A second Close() does
  // nothing; Write or Sync after Close fail with kInvalidArgument.
  virtual Status Close() = 0;

  // Bytes written so far: the offset the next Write starts at. Formats record it for footers.
  virtual int64_t position() const = 0;
};

// A location that can be written. Creating it is the I/O step; holding it costs nothing.
class OutputFile {
 public:
  virtual ~OutputFile() = default;

  virtual const std::string& location() const = 0;

  // Creates the file, failing with kAlreadyExists when something is at the location. Missing parent
  // folders are created (object stores have none, so callers never need to make them).
  virtual Result<std::unique_ptr<FileWriter>> Create() = 0;

  // Creates the file, truncating an existing one.
  virtual Result<std::unique_ptr<FileWriter>> CreateOrOverwrite() = 0;
};

// One entry of a folder listing.
struct FileEntry {
  std::string name;      // the last path component, e.g. "v3.metadata.json"
  std::string location;  // the folder joined with name
  int64_t size = 0;      // bytes; 0 for folders
  bool is_dir = false;
  // The last modification, in milliseconds since the epoch; 0 where the backend does not say.
  int64_t modified_ms = 0;
};

// A storage backend. Implementations are thread-safe.
class FileIO {
 public:
  virtual ~FileIO() = default;

  // Opens an existing file for reading: kNotFound when it is missing.
  virtual Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) = 0;

  // Opens a file whose size the caller knows (manifests record the sizes of the files they list),
  // so that an object store need not ask for it. A wrong size makes reads fail, never succeed with
  // other bytes. By default the same as NewInputFile.
  virtual Result<std::unique_ptr<InputFile>> NewInputFileOfSize(std::string_view location,
                                                                int64_t size);

  // A handle to write location; no I/O happens until Create or CreateOrOverwrite.
  virtual Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) = 0;

  // What is at location (name, size, whether a folder): kNotFound when nothing is.
  virtual Result<FileEntry> GetInfo(std::string_view location) = 0;

  // Removes a file or an empty folder: kNotFound when nothing is there.
  virtual Status Delete(std::string_view location) = 0;

  // The entries directly inside a folder, sorted by name: kNotFound when it is missing.
  virtual Result<std::vector<FileEntry>> List(std::string_view folder) = 0;

  // Creates a folder and its missing parents; succeeds when it already exists.
  virtual Status CreateDirectories(std::string_view folder) = 0;

  // Renames atomically, replacing whatever file is at `to`.
  virtual Status Rename(std::string_view from, std::string_view to) = 0;

  // Renames atomically, failing with kAlreadyExists when anything is at `to`; of several concurrent
  // renames to the same target exactly one wins. This is the compare-and-swap of file-based
  // commits.
  virtual Status RenameNoReplace(std::string_view from, std::string_view to) = 0;

  // Makes the names in a folder (new files, renames, deletes) durable (fsync of the folder).
  virtual Status SyncDirectory(std::string_view folder) = 0;

  // Whether WriteFileAtomically without overwrite is exclusive under folder: of two concurrent
  // writers exactly one wins. File systems always are; an object store is when it honours
  // conditional writes, which it may have to be asked (by trying). Commits by file creation (the
  // hadoop catalog) refuse to run where it is false.
  virtual Result<bool> SupportsExclusiveCreate(std::string_view folder);

  // The following are built on the operations above, so every implementation (and every injected
  // fault) behaves the same.

  // Writes bytes to a unique temporary file in the same folder, syncs it, renames it onto location
  // (never replacing unless overwrite), then syncs the folder. Readers see either no file (or the
  // old one) or all of bytes. On failure before the rename the temporary file is removed and
  // location is untouched (kAlreadyExists when !overwrite and location exists). When only the final
  // folder sync fails, the file is in place but may not survive a crash: that error is
  // kCommitStateUnknown, so a commit must not clean up after it.
  Status WriteFileAtomically(std::string_view location, std::span<const std::byte> bytes,
                             bool overwrite);
  Status WriteFileAtomically(std::string_view location, std::string_view bytes, bool overwrite) {
    return WriteFileAtomically(location, std::as_bytes(std::span(bytes)), overwrite);
  }
  // WriteFileAtomically with overwrite and without its two syncs: readers of a running system see
  // the old file or all of the new one, but a crash may leave either, or the new one empty. For
  // files that readers can do without (a version hint); two syncs fewer per write.
  Status ReplaceFileUnsynced(std::string_view location, std::string_view bytes);

  // Whether a file or folder is at location.
  Result<bool> Exists(std::string_view location);

  // Reads a whole file.
  Result<std::string> ReadFile(std::string_view location);

  // Creates (kAlreadyExists when present) or overwrites a file with bytes, then closes it. Not
  // atomic and not synced: for data files and tests, not for commits.
  Status WriteFile(std::string_view location, std::string_view bytes, bool overwrite);

  // Every file and folder below folder, depth first (a folder, then its entries), each folder's
  // entries sorted by name; names are relative to folder ("a/b.parquet").
  Result<std::vector<FileEntry>> ListRecursive(std::string_view folder);

  // Removes a folder and everything in it, or a single file: kNotFound when nothing is there.
  // An object store overrides it to delete in batches.
  virtual Status DeleteRecursive(std::string_view location);

 protected:
  // What WriteFileAtomically (durable) and ReplaceFileUnsynced do. By default a temporary file
  // renamed onto location, the file synced first and the folder after when durable; an object
  // store, whose single PUT is already all-or-nothing, overrides it.
  virtual Status WriteWholeFile(std::string_view location, std::span<const std::byte> bytes,
                                bool overwrite, bool durable);
};

}  // namespace floe::io
