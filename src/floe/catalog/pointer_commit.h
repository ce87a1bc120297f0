#pragma once

// The commit of catalogs that keep a pointer to each table's current metadata file (sql,
// plugins): check the requirements against the base, apply the updates, write the new metadata
// file, then let the catalog swap the pointer from the base's file to the new one. When the swap
// fails the new file is deleted, unless the outcome is unknown (kCommitStateUnknown), when it
// must stay because it may be current.

#include <functional>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

// Swaps the table's pointer from the base file to new_location, which holds metadata, atomically:
// kCommitFailed (retryable) when the pointer moved since the base was loaded.
using SwapMetadataLocation =
    std::function<Status(const std::string& new_location, const TableMetadataPtr& metadata)>;

// base: the table as loaded (its metadata nullptr when the table does not exist: the requirements
// then decide between kNotFound and kAlreadyExists).
Result<LoadedTable> CommitByPointerSwap(io::FileIO& io, const LoadedTable& base,
                                        const TableCommit& commit,
                                        const SwapMetadataLocation& swap);

// Writes the first metadata file of a new table to its metadata folder and lets the catalog add
// the pointer; deletes the file again when that fails (unless the outcome is unknown).
Result<LoadedTable> CreateByPointer(io::FileIO& io, const TableIdentifier& ident,
                                    TableMetadataPtr metadata, const SwapMetadataLocation& add);

// A create commit (IsCreateCommit) on a table that does not exist: the metadata ApplyCreate makes
// of its updates (default_location unless they set one) becomes the table's first file, added
// by `add` as CreateByPointer does.
Result<LoadedTable> CreateByCommit(io::FileIO& io, const TableIdentifier& ident,
                                   const TableCommit& commit, const std::string& default_location,
                                   const SwapMetadataLocation& add);

}  // namespace floe::catalog
