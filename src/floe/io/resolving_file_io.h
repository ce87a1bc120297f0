#pragma once

// The FileIO for every location floe serves, chosen by scheme (as Iceberg's ResolvingFileIO
// does): plain paths and file: URIs go to LocalFileIO, s3:// and s3a:// to an S3FileIO configured
// from the properties (s3_options.h), made at its first use so that a catalog that never touches
// S3 needs no S3 settings. Any other scheme (hdfs://, gs://, abfs://...) is kUnsupported with a
// message naming it. Operations on two locations (renames) need both on one backend.
//
// Errors: those of the backend; kInvalidArgument for bad S3 properties, at the first S3 use.

#include <memory>
#include <mutex>

#include "floe/io/file_io.h"
#include "floe/io/s3/s3_options.h"

namespace floe::io {

class ResolvingFileIO : public FileIO {
 public:
  explicit ResolvingFileIO(Properties properties = {});
  ~ResolvingFileIO() override;

  // The backend serving location.
  Result<FileIO*> For(std::string_view location);

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) override;
  Result<std::unique_ptr<InputFile>> NewInputFileOfSize(std::string_view location,
                                                        int64_t size) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) override;
  Result<FileEntry> GetInfo(std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileEntry>> List(std::string_view folder) override;
  Status CreateDirectories(std::string_view folder) override;
  Status Rename(std::string_view from, std::string_view to) override;
  Status RenameNoReplace(std::string_view from, std::string_view to) override;
  Status SyncDirectory(std::string_view folder) override;
  Result<bool> SupportsExclusiveCreate(std::string_view folder) override;
  Status DeleteRecursive(std::string_view location) override;

 protected:
  Status WriteWholeFile(std::string_view location, std::span<const std::byte> bytes, bool overwrite,
                        bool durable) override;

 private:
  Result<FileIO*> ForBoth(std::string_view from, std::string_view to);

  Properties properties_;
  std::unique_ptr<FileIO> local_;
  std::once_flag s3_once_;
  std::unique_ptr<FileIO> s3_;
  std::optional<Error> s3_error_;
};

// A FileIO for locations of any scheme floe serves, configured by properties.
std::shared_ptr<FileIO> MakeFileIO(const Properties& properties = {});

}  // namespace floe::io
