#pragma once

// Commits to several tables that land together or not at all (the REST catalog's
// transactions/commit). A catalog that can do it implements MultiTableCommitter beside Catalog:
// the sql catalog swaps every pointer in one database transaction, the REST client sends one
// request. CommitTables finds it behind a cache.
//
// Errors: those of CommitTable, for the first change that fails (then none landed); kUnsupported
// for more than one change on a catalog that cannot commit them atomically; kInvalidArgument for
// two changes to one table.

#include <span>
#include <vector>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

struct TableChange {
  TableIdentifier ident;
  TableCommit commit;
};

class MultiTableCommitter {
 public:
  virtual ~MultiTableCommitter() = default;
  // The tables as committed, in the order of changes.
  virtual Result<std::vector<LoadedTable>> CommitTables(std::span<const TableChange> changes) = 0;
};

// Through the catalog's MultiTableCommitter; a single change through CommitTable on any catalog.
Result<std::vector<LoadedTable>> CommitTables(Catalog& catalog,
                                              std::span<const TableChange> changes);

}  // namespace floe::catalog
