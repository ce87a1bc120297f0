#pragma once

// The REST client's FileIO: the catalog's own (from the merged catalog properties), and one per
// location prefix for what a LoadTableResult configured, a table's `config` (its location) and
// its `storage-credentials` (their prefixes). Each location goes to the FileIO of the longest
// prefix it starts with, so vended s3.* credentials reach exactly the files they were vended for.
// A later result for a prefix replaces the earlier one (credentials are refreshed by loading the
// table again). Thread-safe.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/io/file_io.h"

namespace floe::catalog::rest {

class TableFileIO : public io::FileIO {
 public:
  explicit TableFileIO(StringMap catalog_properties);

  // Registers what result configures for its table at location; no-op when it configures
  // nothing that concerns storage.
  void Configure(const std::string& location, const LoadTableResult& result);

  Result<std::unique_ptr<io::InputFile>> NewInputFile(std::string_view location) override;
  Result<std::unique_ptr<io::InputFile>> NewInputFileOfSize(std::string_view location,
                                                            int64_t size) override;
  Result<std::unique_ptr<io::OutputFile>> NewOutputFile(std::string_view location) override;
  Result<io::FileEntry> GetInfo(std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<io::FileEntry>> List(std::string_view folder) override;
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
  std::shared_ptr<io::FileIO> For(std::string_view location);
  void Put(const std::string& prefix, const StringMap& config);

  StringMap catalog_properties_;
  std::shared_ptr<io::FileIO> default_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<io::FileIO>, std::less<>> by_prefix_;
};

}  // namespace floe::catalog::rest
