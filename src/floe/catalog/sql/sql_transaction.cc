// SqlCatalog::CommitTables (sql_catalog_internal.h): the REST catalog's transactions/commit on
// the sql catalog.

#include <fmt/format.h>

#include "floe/catalog/metadata_files.h"
#include "floe/catalog/pointer_commit.h"
#include "floe/catalog/sql/sql_catalog_internal.h"
#include "floe/io/file_io.h"

namespace floe::catalog {
namespace {

// One change with its new metadata file written; base_location empty for a create.
struct Written {
  std::string base_location;
  LoadedTable table;
};

Error Conflict(const TableIdentifier& ident, std::string_view why) {
  return Error(ErrorKind::kCommitFailed,
               fmt::format("transaction: table {} changed concurrently: {}", ident.ToString(), why),
               /*retryable=*/true);
}

}  // namespace

Result<std::vector<LoadedTable>> SqlCatalog::CommitTables(std::span<const TableChange> changes) {
  std::vector<Written> written;
  // Files of a transaction that did not land are garbage. (With
  // write.metadata.delete-after-commit.enabled, the metadata files a change drops from its log
  // are deleted as the change is written, before the transaction is known to land: they are
  // history of the table, not what it reads.)
  auto discard = [&] {
    for (const Written& w : written) (void)io_->Delete(w.table.metadata_location);
  };
  auto record = [](const std::string&, const TableMetadataPtr&) -> Status { return {}; };
  for (const TableChange& change : changes) {
    const TableIdentifier& ident = change.ident;
    FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(ident));
    std::optional<std::string> base_location;
    bool ns_exists = true;
    {
      auto conn = pool_.Acquire();
      if (!conn) {
        discard();
        return std::unexpected(conn.error());
      }
      auto location = MetadataLocationOn(**conn, ident);
      auto exists = NamespaceExistsOn(**conn, ident.ns);
      if (!location || !exists) {
        discard();
        return std::unexpected(!location ? location.error() : exists.error());
      }
      base_location = std::move(*location);
      ns_exists = *exists;
    }
    Result<LoadedTable> table;
    if (base_location) {
      auto base = Load(ident, *base_location);
      table = base ? CommitByPointerSwap(*io_, *base, change.commit, record)
                   : std::unexpected(base.error());
    } else if (!IsCreateCommit(change.commit)) {
      table = NotFound("table {} does not exist", ident.ToString());
    } else if (!ns_exists) {
      table = NotFound("namespace {} does not exist", ident.ns.ToString());
    } else {
      table =
          CreateByCommit(*io_, ident, change.commit,
                         warehouse_.empty() ? "" : DefaultTableLocation(warehouse_, ident), record);
    }
    if (!table) {
      discard();
      return std::unexpected(table.error());
    }
    written.push_back({base_location.value_or(""), std::move(*table)});
  }

  auto conn = pool_.Acquire();
  if (!conn) {
    discard();
    return std::unexpected(conn.error());
  }
  SqlConnection& db = **conn;
  if (Status begun = db.Begin(); !begun) {
    discard();
    return std::unexpected(begun.error());
  }
  for (const Written& w : written) {
    const TableIdentifier& ident = w.table.ident;
    Status swapped;
    if (w.base_location.empty()) {
      swapped = InsertRowOn(db, ident, w.table.metadata_location);
    } else {
      Result<SqlResult> updated = SwapRowOn(db, ident, w.base_location, w.table.metadata_location);
      if (!updated) {
        swapped = std::unexpected(updated.error());
      } else if (updated->rows_changed != 1) {
        swapped = std::unexpected(
            Conflict(ident, fmt::format("its metadata is no longer {}", w.base_location)));
      }
    }
    if (!swapped) {
      // Nothing is committed before COMMIT: even on a lost connection the database rolls back.
      db.Rollback();
      discard();
      Error error = swapped.error();
      if (error.kind() == ErrorKind::kCommitStateUnknown ||
          (error.kind() == ErrorKind::kIO && error.retryable())) {
        return std::unexpected(Conflict(ident, error.message()));
      }
      return std::unexpected(std::move(error));
    }
  }
  if (Status committed = db.Commit(); !committed) {
    if (db.broken()) {
      return CommitStateUnknown(
          "transaction of {} tables: the connection was lost after COMMIT was sent: {}",
          written.size(), committed.error().message());
    }
    db.Rollback();
    discard();
    return std::unexpected(Conflict(written.front().table.ident, committed.error().message()));
  }
  std::vector<LoadedTable> out;
  for (Written& w : written) out.push_back(std::move(w.table));
  return out;
}

}  // namespace floe::catalog
