// The tables of the Glue catalog (glue_catalog.h): load, create, commit, rename, drop, register.

#include <fmt/format.h>

#include "floe/catalog/glue/glue_catalog_internal.h"
#include "floe/catalog/glue/glue_table_input_internal.h"
#include "floe/catalog/new_table.h"
#include "floe/catalog/pointer_commit.h"
#include "floe/catalog/purge.h"
#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/util/clock.h"

namespace floe::catalog::glue {
namespace {

std::string MetadataLocationOf(const GlueTable& table) {
  auto it = table.parameters.find(kMetadataLocationParameter);
  return it == table.parameters.end() ? std::string() : it->second;
}

// The outcome of a write whose answer was lost is not known.
bool Unanswered(const Error& error) {
  switch (error.kind()) {
    case ErrorKind::kCommitFailed:
    case ErrorKind::kNotFound:
    case ErrorKind::kAlreadyExists:
    case ErrorKind::kInvalidArgument:
      return false;
    default:
      return true;
  }
}

}  // namespace

Result<GlueTable> GlueCatalog::IcebergTable(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ValidateGlueIdentifier(ident));
  auto table = GetTable(*client_, ident.ns.levels[0], ident.name);
  if (!table) {
    if (table.error().kind() == ErrorKind::kNotFound) {
      return NotFound("table {} does not exist ({})", ident.ToString(), table.error().message());
    }
    return std::unexpected(std::move(table.error()));
  }
  if (!IsIcebergTable(table->parameters)) {
    auto type = table->parameters.find(kTableTypeParameter);
    return NotFound("table {} is a Glue table but not an Iceberg table (table_type={})",
                    ident.ToString(), type == table->parameters.end() ? "unset" : type->second);
  }
  if (MetadataLocationOf(*table).empty()) {
    return CorruptData("Glue table {} is an Iceberg table without a metadata_location parameter",
                       ident.ToString());
  }
  return table;
}

Result<TableMetadataPtr> GlueCatalog::ReadMetadata(const TableIdentifier& ident,
                                                   const std::string& location) {
  auto metadata = ReadTableMetadata(*io_, location);
  if (!metadata) {
    return std::unexpected(
        metadata.error().AddContext(fmt::format("loading table {}", ident.ToString())));
  }
  return metadata;
}

Result<std::vector<TableIdentifier>> GlueCatalog::ListTables(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(GlueDatabase database, Database(ns));
  FLOE_ASSIGN_OR_RETURN(std::vector<GlueTable> tables, GetTables(*client_, database.name));
  std::vector<TableIdentifier> out;
  for (const GlueTable& table : tables) {
    if (IsIcebergTable(table.parameters)) out.push_back(TableIdentifier{ns, table.name});
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<bool> GlueCatalog::TableExists(const TableIdentifier& ident) {
  auto table = IcebergTable(ident);
  if (table) return true;
  if (table.error().kind() == ErrorKind::kNotFound) return false;
  return std::unexpected(std::move(table.error()));
}

Result<LoadedTable> GlueCatalog::LoadTable(const TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(GlueTable table, IcebergTable(ident));
  std::string location = MetadataLocationOf(table);
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadMetadata(ident, location));
  return LoadedTable{ident, std::move(location), std::move(metadata)};
}

Status GlueCatalog::AddTable(const TableIdentifier& ident, const std::string& location,
                             const TableMetadata& metadata) {
  Status created =
      glue::CreateTable(*client_, ident.ns.levels[0],
                        IcebergTableInput(Json::MakeObject(), ident.name, metadata, location, ""));
  if (created) return {};
  if (created.error().kind() == ErrorKind::kAlreadyExists) {
    return AlreadyExists("table {} already exists ({})", ident.ToString(),
                         created.error().message());
  }
  if (!Unanswered(created.error())) return created;
  // The answer is lost: the table says whether the create landed.
  auto after = IcebergTable(ident);
  if (after && MetadataLocationOf(*after) == location) return {};
  return CommitStateUnknown("table {}: {} (the table may or may not exist now)", ident.ToString(),
                            created.error().message());
}

Result<LoadedTable> GlueCatalog::CreateTable(const TableIdentifier& ident,
                                             const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(ValidateGlueIdentifier(ident));
  FLOE_ASSIGN_OR_RETURN(GlueDatabase database, Database(ident.ns));
  auto existing = GetTable(*client_, database.name, ident.name);
  if (existing) return AlreadyExists("table {} already exists", ident.ToString());
  if (existing.error().kind() != ErrorKind::kNotFound) {
    return std::unexpected(std::move(existing.error()));
  }
  std::string table_location = request.location;
  if (table_location.empty()) {
    FLOE_ASSIGN_OR_RETURN(table_location, DefaultLocation(database, ident));
  }
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata,
                        NewTableMetadata(request, io::NormalizeLocation(table_location), NowMs()));
  return CreateByPointer(*io_, ident, std::move(metadata),
                         [&](const std::string& location, const TableMetadataPtr& written) {
                           return AddTable(ident, location, *written);
                         });
}

Status GlueCatalog::Swap(const TableIdentifier& ident, const GlueTable& base,
                         const std::string& location, const TableMetadata& metadata) {
  std::string base_location = MetadataLocationOf(base);
  // Read again now that the file is written, as Iceberg does: a writer that committed since the
  // load is caught here, and the VersionId read now guards the rest of the way.
  FLOE_ASSIGN_OR_RETURN(GlueTable current, IcebergTable(ident));
  if (MetadataLocationOf(current) != base_location) {
    return std::unexpected(
        Error(ErrorKind::kCommitFailed,
              fmt::format("table {} changed concurrently: its metadata is {}, "
                          "no longer {}",
                          ident.ToString(), MetadataLocationOf(current), base_location),
              /*retryable=*/true));
  }
  Status updated =
      UpdateTable(*client_, current.database,
                  IcebergTableInput(current.input, ident.name, metadata, location, base_location),
                  current.version_id, skip_archive_);
  if (updated) return {};
  if (updated.error().kind() == ErrorKind::kCommitFailed) {
    return std::unexpected(Error(ErrorKind::kCommitFailed,
                                 fmt::format("table {} changed concurrently: {}", ident.ToString(),
                                             updated.error().message()),
                                 /*retryable=*/true));
  }
  if (!Unanswered(updated.error())) return updated;
  // The answer is lost: the table says whether the update landed.
  auto after = IcebergTable(ident);
  if (after && MetadataLocationOf(*after) == location) return {};
  return CommitStateUnknown("table {}: {} (the commit of {} may or may not have been applied)",
                            ident.ToString(), updated.error().message(), location);
}

Result<LoadedTable> GlueCatalog::CommitTable(const TableIdentifier& ident,
                                             const TableCommit& commit) {
  auto base = IcebergTable(ident);
  if (!base) {
    if (base.error().kind() != ErrorKind::kNotFound || !IsCreateCommit(commit)) {
      return std::unexpected(std::move(base.error()));
    }
    FLOE_ASSIGN_OR_RETURN(GlueDatabase database, Database(ident.ns));
    // A Glue table that is not Iceberg's keeps its name: AddTable fails with kAlreadyExists.
    auto location = DefaultLocation(database, ident);
    return CreateByCommit(*io_, ident, commit, location ? *location : "",
                          [&](const std::string& file, const TableMetadataPtr& written) {
                            return AddTable(ident, file, *written);
                          });
  }
  std::string base_location = MetadataLocationOf(*base);
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadMetadata(ident, base_location));
  return CommitByPointerSwap(*io_, LoadedTable{ident, base_location, std::move(metadata)}, commit,
                             [&](const std::string& location, const TableMetadataPtr& written) {
                               return Swap(ident, *base, location, *written);
                             });
}

Status GlueCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_ASSIGN_OR_RETURN(GlueTable table, IcebergTable(from));
  FLOE_RETURN_IF_ERROR(ValidateGlueIdentifier(to));
  if (from == to) return {};
  FLOE_ASSIGN_OR_RETURN(GlueDatabase target, Database(to.ns));
  // Glue has no rename: the entry is copied under the new name, then the old one deleted.
  Json input = table.input;
  input.Set("Name", to.name);
  Status created = glue::CreateTable(*client_, target.name, input);
  if (!created) {
    if (created.error().kind() == ErrorKind::kAlreadyExists) {
      return AlreadyExists("cannot rename {} to {}: the name is taken ({})", from.ToString(),
                           to.ToString(), created.error().message());
    }
    return std::unexpected(std::move(created.error().AddContext(
        fmt::format("renaming {} to {}", from.ToString(), to.ToString()))));
  }
  Status deleted = DeleteTable(*client_, table.database, from.name);
  if (deleted) return {};
  Status undone = DeleteTable(*client_, target.name, to.name);
  if (undone) {
    return std::unexpected(std::move(deleted.error().AddContext(fmt::format(
        "renaming {} to {}: the old entry could not be deleted, so the new one was deleted again "
        "and the table is still {}",
        from.ToString(), to.ToString(), from.ToString()))));
  }
  return std::unexpected(Error(
      deleted.error().kind(),
      fmt::format("renaming {} to {}: the table is now in Glue under both names, pointing at the "
                  "same files; drop one of them without purge. Deleting the old entry failed: {}; "
                  "deleting the new one failed: {}",
                  from.ToString(), to.ToString(), deleted.error().message(),
                  undone.error().message())));
}

Status GlueCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  FLOE_ASSIGN_OR_RETURN(GlueTable table, IcebergTable(ident));
  std::string location = MetadataLocationOf(table);
  // Purging needs the metadata that names the files: read it before the table is forgotten.
  TableMetadataPtr metadata;
  if (purge) {
    FLOE_ASSIGN_OR_RETURN(metadata, ReadMetadata(ident, location));
  }
  Status deleted = DeleteTable(*client_, table.database, ident.name);
  if (!deleted) {
    if (deleted.error().kind() == ErrorKind::kNotFound) {
      return NotFound("table {} does not exist ({})", ident.ToString(), deleted.error().message());
    }
    return deleted;
  }
  if (!purge) return {};
  FLOE_RETURN_IF_ERROR(DeleteTableFiles(*io_, *metadata));
  // Best effort, like the files DeleteTableFiles removes: the table is gone either way.
  (void)io_->Delete(location);
  return {};
}

Result<LoadedTable> GlueCatalog::RegisterTable(const TableIdentifier& ident,
                                               const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ValidateGlueIdentifier(ident));
  FLOE_RETURN_IF_ERROR(Database(ident.ns));
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadMetadata(ident, metadata_location));
  FLOE_RETURN_IF_ERROR(AddTable(ident, metadata_location, *metadata));
  return LoadedTable{ident, metadata_location, std::move(metadata)};
}

}  // namespace floe::catalog::glue
