#pragma once

// A Transaction applies one or more changes (PendingUpdate) to one base and commits them as one
// TableCommit, so that readers see all of them or none. When the catalog answers with a retryable
// kCommitFailed (another writer won the race), the transaction waits (RetryPolicy, from the
// `commit.retry.*` properties), refreshes the table and applies every change again to the fresh
// base, which re-runs their validations; files that failed attempts wrote are deleted.
//
// Create and replace transactions start from metadata made by the caller instead of the table's:
// create commits with AssertCreate (kAlreadyExists when the table appeared meanwhile, never
// retried), replace keeps the table's history and swaps in new schema, spec, order and properties.
//
// Outcomes: OK; kCommitStateUnknown when the catalog cannot tell whether the commit landed (the
// transaction then deletes nothing and must not be reported as failed); any other error means the
// commit did not happen and its files were cleaned up.

#include <memory>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/table/update/pending_update.h"
#include "floe/util/error.h"

namespace floe::table {

class Table;

class Transaction {
 public:
  explicit Transaction(Table& table);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // A transaction that creates table's identifier with `initial` (already holding schema, spec,
  // order, location and properties with their ids assigned) plus the changes added.
  static std::unique_ptr<Transaction> ForCreate(Table& table, TableMetadataPtr initial);
  // A transaction that replaces the table's schema, default spec, sort order and properties with
  // those of `replacement` (ids matched to the table's by name) and clears its current snapshot,
  // keeping the history, before applying the changes added.
  static std::unique_ptr<Transaction> ForReplace(Table& table, TableMetadataPtr replacement);

  // Adds a change made by one of the table's factories; the transaction owns it and applies the
  // changes in the order added.
  template <typename Op>
  Op& Add(std::unique_ptr<Op> op) {
    Op& ref = *op;
    owned_.push_back(std::move(op));
    ops_.push_back(&ref);
    return ref;
  }
  // Adds a change the caller keeps owning (it must outlive Commit).
  void AddBorrowed(PendingUpdate& op) { ops_.push_back(&op); }

  Status Commit();

  // How many commit attempts the last Commit made.
  int attempts() const { return attempts_; }

 private:
  enum class Kind : unsigned char { kUpdate, kCreate, kReplace };

  Result<catalog::TableCommit> Build(const TableMetadata* base);
  void FinishAll(const TableMetadata* committed);

  Table& table_;
  Kind kind_ = Kind::kUpdate;
  TableMetadataPtr initial_;
  std::vector<std::unique_ptr<PendingUpdate>> owned_;
  std::vector<PendingUpdate*> ops_;
  int attempts_ = 0;
};

}  // namespace floe::table
