#include "floe/table/update/transaction.h"

#include <chrono>
#include <thread>

#include "floe/table/table.h"
#include "floe/table/update/replace_table.h"
#include "floe/table/update/requirements.h"
#include "floe/table/update/retry.h"
#include "floe/util/clock.h"

namespace floe::table {
Transaction::Transaction(Table& table) : table_(table) {}
Transaction::~Transaction() = default;

std::unique_ptr<Transaction> Transaction::ForCreate(Table& table, TableMetadataPtr initial) {
  auto txn = std::make_unique<Transaction>(table);
  txn->kind_ = Kind::kCreate;
  txn->initial_ = std::move(initial);
  return txn;
}

std::unique_ptr<Transaction> Transaction::ForReplace(Table& table, TableMetadataPtr replacement) {
  auto txn = std::make_unique<Transaction>(table);
  txn->kind_ = Kind::kReplace;
  txn->initial_ = std::move(replacement);
  return txn;
}

Result<catalog::TableCommit> Transaction::Build(const TableMetadata* base) {
  catalog::TableCommit commit;
  TableMetadataPtr current;
  int64_t now = NowMs();
  if (kind_ == Kind::kCreate) {
    commit.requirements.push_back(catalog::AssertCreate{});
    commit.updates = catalog::UpdatesToCreate(*initial_);
    current = initial_;
  } else {
    if (kind_ == Kind::kReplace) {
      FLOE_ASSIGN_OR_RETURN(commit.updates, ReplacementUpdates(*base, *initial_));
      FLOE_ASSIGN_OR_RETURN(current, catalog::ApplyUpdates(*base, commit.updates, now));
    }
  }
  const TableMetadata* view = current ? current.get() : base;
  for (PendingUpdate* op : ops_) {
    FLOE_ASSIGN_OR_RETURN(std::vector<catalog::TableUpdate> updates, op->Apply(*view));
    FLOE_ASSIGN_OR_RETURN(current, catalog::ApplyUpdates(*view, updates, now));
    view = current.get();
    for (auto& update : updates) commit.updates.push_back(std::move(update));
  }
  if (kind_ != Kind::kCreate) commit.requirements = RequirementsFor(*base, commit.updates);
  return commit;
}

void Transaction::FinishAll(const TableMetadata* committed) {
  for (PendingUpdate* op : ops_) op->Finish(committed);
}

Status Transaction::Commit() {
  attempts_ = 0;
  TableMetadataPtr base = table_.metadata();
  RetryPolicy policy = RetryPolicy::FromProperties(kind_ == Kind::kCreate ? *initial_ : *base);
  auto start = std::chrono::steady_clock::now();
  for (int retry = 0;; ++retry) {
    ++attempts_;
    Result<catalog::TableCommit> commit = Build(kind_ == Kind::kCreate ? nullptr : base.get());
    if (!commit) {
      FinishAll(nullptr);
      return std::unexpected(std::move(commit).error());
    }
    Result<TableMetadataPtr> committed = table_.CommitUpdates(*commit);
    if (committed) {
      FinishAll(committed->get());
      return Ok();
    }
    const Error& error = committed.error();
    if (error.kind() == ErrorKind::kCommitStateUnknown) return std::unexpected(error);
    bool retryable = error.kind() == ErrorKind::kCommitFailed && error.retryable() &&
                     kind_ != Kind::kCreate && retry < policy.num_retries;
    auto wait = policy.Backoff(retry + 1);
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start + wait);
    if (!retryable || elapsed.count() > policy.total_timeout_ms) {
      FinishAll(nullptr);
      return std::unexpected(error);
    }
    std::this_thread::sleep_for(wait);
    if (Status refreshed = table_.Refresh(); !refreshed) {
      FinishAll(nullptr);
      return refreshed;
    }
    base = table_.metadata();
  }
}

Status PendingUpdate::Commit() {
  Transaction txn(table_);
  txn.AddBorrowed(*this);
  return txn.Commit();
}

}  // namespace floe::table
