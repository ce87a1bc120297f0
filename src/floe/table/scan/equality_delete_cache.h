#pragma once

// The equality-delete sets of a scan, shared by every TaskReader (and thread) that reads it: each
// delete file is read once, by the first reader that needs it, while the others wait for it, and
// kept for the tasks after it, within a memory budget. Past the budget the least recently used
// sets no task holds are dropped (and read again when needed); when the sets in use alone exceed
// it, Get fails with kResourceExhausted naming the file and the budget, rather than growing
// without bound. Thread-safe.

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "floe/io/file_io.h"
#include "floe/manifest/data_file.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/equality_delete_filter.h"
#include "floe/table/scan/name_mapping.h"
#include "floe/util/error.h"

namespace floe::table {

class EqualityDeleteCache {
 public:
  static constexpr int64_t kDefaultMemoryBytes = int64_t{1} << 30;

  explicit EqualityDeleteCache(int64_t memory_bytes = kDefaultMemoryBytes)
      : memory_bytes_(memory_bytes) {}

  // The keys of the equality delete file, read with schema (the table schema the scan reads).
  Result<std::shared_ptr<const EqualityDeleteSet>> Get(io::FileIO& io,
                                                       const manifest::DataFile& file,
                                                       const SchemaPtr& schema,
                                                       const NameMapping* name_mapping);

  int64_t memory_bytes() const { return memory_bytes_; }
  // What the sets held now take, and how many delete files were read (for tests and metrics).
  int64_t used_bytes() const;
  int64_t files_read() const;

 private:
  struct Slot {
    std::mutex loading;  // held while the file is read
    std::shared_ptr<const EqualityDeleteSet> set;
    int64_t bytes = 0;
    std::list<std::string>::iterator recent;  // its place in recent_, once loaded
  };
  // Accounts for a newly loaded slot, dropping unused sets past the budget.
  Status Admit(const std::string& path, Slot& slot);

  const int64_t memory_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Slot>> slots_;
  std::list<std::string> recent_;  // loaded slots, most recently used first
  int64_t used_bytes_ = 0;
  int64_t files_read_ = 0;
};

}  // namespace floe::table
