#include "floe/catalog/pointer_commit.h"

#include "floe/catalog/metadata_files.h"
#include "floe/catalog/table_update.h"
#include "floe/io/file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/util/clock.h"

namespace floe::catalog {
namespace {

Result<LoadedTable> WriteAndSwap(io::FileIO& io, const TableIdentifier& ident,
                                 TableMetadataPtr metadata, const std::string& previous_location,
                                 const SwapMetadataLocation& swap) {
  FLOE_ASSIGN_OR_RETURN(std::string location, NewMetadataLocation(*metadata, previous_location));
  FLOE_RETURN_IF_ERROR(WriteTableMetadata(io, location, *metadata));
  Status swapped = swap(location, metadata);
  if (!swapped) {
    if (swapped.error().kind() != ErrorKind::kCommitStateUnknown) (void)io.Delete(location);
    return std::unexpected(swapped.error());
  }
  return LoadedTable{ident, std::move(location), std::move(metadata)};
}

}  // namespace

Result<LoadedTable> CommitByPointerSwap(io::FileIO& io, const LoadedTable& base,
                                        const TableCommit& commit,
                                        const SwapMetadataLocation& swap) {
  FLOE_RETURN_IF_ERROR(CheckRequirements(base.metadata.get(), commit.requirements));
  if (base.metadata == nullptr) {
    return NotFound("table {} does not exist", base.ident.ToString());
  }
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr updated,
                        ApplyUpdates(*base.metadata, commit.updates, NowMs()));
  std::vector<std::string> removed;
  FLOE_ASSIGN_OR_RETURN(
      TableMetadataPtr next,
      AddPreviousMetadataFile(*updated, *base.metadata, base.metadata_location, &removed));
  FLOE_ASSIGN_OR_RETURN(LoadedTable committed, WriteAndSwap(io, base.ident, std::move(next),
                                                            base.metadata_location, swap));
  DeleteRemovedMetadataFiles(io, *committed.metadata, removed);
  return committed;
}

Result<LoadedTable> CreateByPointer(io::FileIO& io, const TableIdentifier& ident,
                                    TableMetadataPtr metadata, const SwapMetadataLocation& add) {
  return WriteAndSwap(io, ident, std::move(metadata), "", add);
}

Result<LoadedTable> CreateByCommit(io::FileIO& io, const TableIdentifier& ident,
                                   const TableCommit& commit, const std::string& default_location,
                                   const SwapMetadataLocation& add) {
  FLOE_RETURN_IF_ERROR(CheckRequirements(nullptr, commit.requirements));
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata,
                        ApplyCreate(commit.updates, default_location, NowMs()));
  return CreateByPointer(io, ident, std::move(metadata), add);
}

}  // namespace floe::catalog
