#include "floe/io/resolving_file_io.h"

#include "floe/io/local_file_io.h"
#include "floe/io/location.h"
#include "floe/io/s3/s3_file_io.h"
#include "floe/util/strings.h"

namespace floe::io {

ResolvingFileIO::ResolvingFileIO(Properties properties)
    : properties_(std::move(properties)), local_(std::make_shared<LocalFileIO>()) {}

ResolvingFileIO::~ResolvingFileIO() = default;

Result<RoutingFileIO::Target> ResolvingFileIO::Route(std::string_view location) {
  std::string_view scheme = LocationScheme(location);
  if (scheme.empty() || EqualsIgnoreCase(scheme, "file")) {
    return Target{local_, std::string(location)};
  }
  if (IsS3Location(location)) {
    std::call_once(s3_once_, [&] {
      auto options = S3OptionsFrom(properties_);
      if (options) {
        s3_ = std::make_shared<S3FileIO>(std::move(*options));
      } else {
        s3_error_ = std::move(options).error();
      }
    });
    if (s3_error_) return std::unexpected(*s3_error_);
    return Target{s3_, std::string(location)};
  }
  return Unsupported(
      "location '{}' has scheme '{}', which floe does not support yet (it serves local paths, "
      "file:, s3:// and s3a://)",
      location, scheme);
}

std::shared_ptr<FileIO> MakeFileIO(const Properties& properties) {
  return std::make_shared<ResolvingFileIO>(properties);
}

bool IsStorageProperty(std::string_view key) {
  return key.starts_with("s3.") || key.starts_with("client.");
}

}  // namespace floe::io
