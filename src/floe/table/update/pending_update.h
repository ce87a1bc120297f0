#pragma once

// One change to a table (an append, a schema change, an expiry...) as a transaction applies it:
// given the metadata as the earlier changes of the transaction left it, the change says which
// catalog updates make it. Commits are data (catalog/table_update.h): the transaction, not the
// change, turns updates into requirements and asks the catalog to swap them in.
//
// Apply may be called several times, each time on a fresher base, because a transaction retries
// a lost race by refreshing the table and applying every change again (re-running its
// validations). Apply may write files (manifests, manifest lists); Finish tells the change how
// the commit ended so that it can delete what no committed metadata references. A change is used
// by one thread at a time.
//
// Errors from Apply: kCommitFailed, not retryable, for validation failures (a conflicting commit
// landed since the change's starting snapshot), kInvalidArgument for changes that cannot apply,
// and I/O errors while writing files.

#include <vector>

#include "floe/catalog/table_update.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe::table {

class Table;

class PendingUpdate {
 public:
  virtual ~PendingUpdate() = default;
  PendingUpdate(const PendingUpdate&) = delete;
  PendingUpdate& operator=(const PendingUpdate&) = delete;

  // The updates that make this change on base.
  virtual Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) = 0;

  // Called once when the commit's outcome is known: committed is the table as committed, or
  // nullptr when the commit definitely failed. Never called when the outcome is unknown.
  virtual void Finish(const TableMetadata* committed) { (void)committed; }

  // Applies this change alone and commits it, retrying as Transaction::Commit does.
  Status Commit();

  Table& table() const { return table_; }

 protected:
  explicit PendingUpdate(Table& table) : table_(table) {}

 private:
  Table& table_;
};

}  // namespace floe::table
