#pragma once

// A FileIO whose configuration can differ by location prefix: the REST catalog's, where a
// LoadTableResult configures the files of one table (its `config`, at the table's location) or of
// chosen prefixes (its `storage-credentials`). Each location goes to the FileIO of the longest
// configured prefix it starts with, else to the one of the base properties; a later Configure of a
// prefix replaces the earlier one (credentials are refreshed by loading the table again).
// Thread-safe.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "floe/io/routing_file_io.h"
#include "floe/io/s3/s3_options.h"

namespace floe::io {

class PrefixFileIO final : public RoutingFileIO {
 public:
  explicit PrefixFileIO(Properties base_properties);

  // Locations starting with prefix are served as the base properties overridden by overrides say.
  // No-op when prefix is empty or overrides holds no key that concerns storage (s3.*, client.*).
  void Configure(const std::string& prefix, const Properties& overrides);

 protected:
  Result<Target> Route(std::string_view location) override;

 private:
  Properties base_properties_;
  std::shared_ptr<FileIO> base_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<FileIO>, std::less<>> by_prefix_;
};

}  // namespace floe::io
