#pragma once

// The base of FileIOs that serve nothing themselves but pass each call on to another FileIO chosen
// for its location, with the location possibly rewritten: by scheme (resolving_file_io.h), by a
// mapping of locations (mapped_file_io.h), by the longest configured prefix (prefix_file_io.h).
// A subclass says only where a location goes (Route); every FileIO call is forwarded here, the
// built-in helpers of FileIO included, so a subclass cannot forget one.
//
// A call on two locations (Rename, RenameNoReplace) needs both routed to the same FileIO, else it
// fails with kUnsupported naming both: no store renames across backends atomically.

#include <memory>
#include <string>

#include "floe/io/file_io.h"

namespace floe::io {

class RoutingFileIO : public FileIO {
 public:
  // Where a location's calls go: the FileIO, kept alive for the call, and the location it is
  // known by there.
  struct Target {
    std::shared_ptr<FileIO> io;
    std::string location;
  };

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) final;
  Result<std::unique_ptr<InputFile>> NewInputFileOfSize(std::string_view location,
                                                        int64_t size) final;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) final;
  Result<FileEntry> GetInfo(std::string_view location) final;
  Status Delete(std::string_view location) final;
  Result<std::vector<FileEntry>> List(std::string_view folder) final;
  Status CreateDirectories(std::string_view folder) final;
  Status Rename(std::string_view from, std::string_view to) final;
  Status RenameNoReplace(std::string_view from, std::string_view to) final;
  Status SyncDirectory(std::string_view folder) final;
  Result<bool> SupportsExclusiveCreate(std::string_view folder) final;
  Status DeleteRecursive(std::string_view location) final;

 protected:
  // The target of location, or the error every call on it fails with.
  virtual Result<Target> Route(std::string_view location) = 0;

  Status WriteWholeFile(std::string_view location, std::span<const std::byte> bytes, bool overwrite,
                        bool durable) final;

 private:
  Result<std::pair<Target, Target>> RouteBoth(std::string_view from, std::string_view to);
};

}  // namespace floe::io
