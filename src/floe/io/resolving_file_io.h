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
#include <optional>

#include "floe/io/routing_file_io.h"
#include "floe/io/s3/s3_options.h"

namespace floe::io {

class ResolvingFileIO final : public RoutingFileIO {
 public:
  explicit ResolvingFileIO(Properties properties = {});
  ~ResolvingFileIO() override;

 protected:
  Result<Target> Route(std::string_view location) override;

 private:
  Properties properties_;
  std::shared_ptr<FileIO> local_;
  std::once_flag s3_once_;
  std::shared_ptr<FileIO> s3_;
  std::optional<Error> s3_error_;
};

// A FileIO for locations of any scheme floe serves, configured by properties.
std::shared_ptr<FileIO> MakeFileIO(const Properties& properties = {});

// Whether a property changes how files are reached (s3.*, client.*): what MakeFileIO reads.
bool IsStorageProperty(std::string_view key);

}  // namespace floe::io
