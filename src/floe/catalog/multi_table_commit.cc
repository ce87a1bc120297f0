#include "floe/catalog/multi_table_commit.h"

#include <set>

#include "floe/catalog/caching_catalog.h"

namespace floe::catalog {

Result<std::vector<LoadedTable>> CommitTables(Catalog& catalog,
                                              std::span<const TableChange> changes) {
  std::set<TableIdentifier> seen;
  for (const TableChange& change : changes) {
    if (!seen.insert(change.ident).second) {
      return InvalidArgument("a transaction changes table {} twice", change.ident.ToString());
    }
  }
  if (changes.size() == 1) {
    FLOE_ASSIGN_OR_RETURN(LoadedTable table,
                          catalog.CommitTable(changes[0].ident, changes[0].commit));
    return std::vector<LoadedTable>{std::move(table)};
  }
  Catalog* target = &catalog;
  if (auto* cache = dynamic_cast<CachingCatalog*>(target)) target = cache->inner().get();
  auto* committer = dynamic_cast<MultiTableCommitter*>(target);
  if (!committer) {
    return Unsupported("catalog {} cannot commit {} tables atomically", catalog.name(),
                       changes.size());
  }
  auto committed = committer->CommitTables(changes);
  // The cache in front (if any) must not keep the tables as they were.
  for (const TableChange& change : changes) catalog.Invalidate(change.ident);
  return committed;
}

}  // namespace floe::catalog
