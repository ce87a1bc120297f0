#pragma once

// The metrics of a snapshot's summary (spec Appendix F "Optional Snapshot Summary Fields", as
// Iceberg Java's SnapshotSummary writes them): what the snapshot added and removed, only when not
// zero, and the table totals, each the parent's total plus the added minus the removed. A total the
// parent's summary lacks (an engine that did not write it) stays unknown and is left out; a table's
// first snapshot starts from zero. Deletion vectors (position deletes in Puffin) count as delete
// files and position deletes, and also as `added-dvs` / `removed-dvs`, not as position delete
// files.

#include <cstdint>
#include <set>
#include <string>

#include "floe/manifest/data_file.h"
#include "floe/spec/snapshot.h"

namespace floe::table {

class SnapshotSummaryBuilder {
 public:
  void AddedFile(const manifest::DataFile& file);
  void RemovedFile(const manifest::DataFile& file);

  // The summary of a snapshot whose parent's summary is parent (nullptr: the first snapshot),
  // merged over `base` (operation and user properties).
  StringMap Build(const StringMap* parent, StringMap base) const;

 private:
  struct Counts {
    int64_t data_files = 0;
    int64_t delete_files = 0;
    int64_t equality_delete_files = 0;
    int64_t position_delete_files = 0;
    int64_t dvs = 0;
    int64_t records = 0;
    int64_t files_size = 0;
    int64_t position_deletes = 0;
    int64_t equality_deletes = 0;
  };
  static void Count(Counts& counts, const manifest::DataFile& file);

  Counts added_;
  Counts removed_;
  std::set<std::string> partitions_;
};

using manifest::PartitionKey;

}  // namespace floe::table
