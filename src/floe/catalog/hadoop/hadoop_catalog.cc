#include "floe/catalog/hadoop/hadoop_catalog.h"

#include <fmt/format.h>

#include <filesystem>

#include "floe/catalog/hadoop/version_files_internal.h"
#include "floe/catalog/metadata_files.h"
#include "floe/catalog/new_table.h"
#include "floe/catalog/purge.h"
#include "floe/catalog/table_update.h"
#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/io/resolving_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/util/clock.h"
#include "floe/util/strings.h"

namespace floe::catalog {
namespace {

bool IsMetadataFileName(std::string_view name) {
  return !name.starts_with('.') &&
         (name.ends_with(".metadata.json") || name.ends_with(".metadata.json.gz"));
}

Error NoSuchTable(const TableIdentifier& ident) {
  return Error(ErrorKind::kNotFound, fmt::format("table {} does not exist", ident.ToString()));
}

Error NoSuchNamespace(const Namespace& ns) {
  return Error(ErrorKind::kNotFound, fmt::format("namespace {} does not exist", ns.ToString()));
}

// Folder names that are valid identifier parts: others (".hidden", names with control
// characters) cannot be addressed, so they are not listed.
bool Addressable(const io::FileEntry& entry) {
  return entry.is_dir && ValidateIdentifierPart(entry.name, "name").has_value();
}

}  // namespace

HadoopCatalog::HadoopCatalog(std::string name, std::string warehouse,
                             std::shared_ptr<io::FileIO> io)
    : name_(std::move(name)), warehouse_(std::move(warehouse)), io_(std::move(io)) {}

Result<std::shared_ptr<HadoopCatalog>> HadoopCatalog::Make(std::string name,
                                                           const StringMap& properties,
                                                           std::shared_ptr<io::FileIO> io) {
  auto it = properties.find("warehouse");
  if (it == properties.end() || it->second.empty()) {
    return InvalidArgument("hadoop catalog {}: the 'warehouse' property is required", name);
  }
  if (io == nullptr) io = io::MakeFileIO(properties);
  std::string warehouse = io::NormalizeLocation(it->second);
  return std::shared_ptr<HadoopCatalog>(
      new HadoopCatalog(std::move(name), std::move(warehouse), std::move(io)));
}

std::string HadoopCatalog::NamespaceFolder(const Namespace& ns) const {
  std::string folder = warehouse_;
  for (const std::string& level : ns.levels) folder = io::JoinLocation(folder, level);
  return folder;
}

std::string HadoopCatalog::TableFolder(const TableIdentifier& ident) const {
  return DefaultTableLocation(warehouse_, ident);
}

Result<bool> HadoopCatalog::IsTableFolder(const std::string& folder) {
  auto listing = io_->List(io::JoinLocation(folder, "metadata"));
  if (!listing) {
    if (listing.error().kind() == ErrorKind::kNotFound) return false;
    return std::unexpected(listing.error());
  }
  for (const io::FileEntry& entry : *listing) {
    if (!entry.is_dir && IsMetadataFileName(entry.name)) return true;
  }
  return false;
}

Result<bool> HadoopCatalog::IsNamespaceFolder(const std::string& folder) {
  auto info = io_->GetInfo(folder);
  if (!info) {
    if (info.error().kind() == ErrorKind::kNotFound) return false;
    return std::unexpected(info.error());
  }
  if (!info->is_dir) return false;
  FLOE_ASSIGN_OR_RETURN(bool table, IsTableFolder(folder));
  return !table;
}

// --- namespaces

Status HadoopCatalog::CreateNamespace(const Namespace& ns, const StringMap& properties) {
  FLOE_RETURN_IF_ERROR(Validate(ns));
  if (!properties.empty()) {
    return InvalidArgument(
        "cannot create namespace {}: the hadoop catalog stores no namespace "
        "properties",
        ns.ToString());
  }
  std::string folder = NamespaceFolder(ns);
  FLOE_ASSIGN_OR_RETURN(bool exists, io_->Exists(folder));
  if (exists) return AlreadyExists("namespace {} already exists", ns.ToString());
  return io_->CreateDirectories(folder);
}

Result<std::vector<Namespace>> HadoopCatalog::ListNamespaces(const Namespace& parent) {
  if (!parent.empty()) {
    FLOE_RETURN_IF_ERROR(Validate(parent));
    FLOE_ASSIGN_OR_RETURN(bool exists, IsNamespaceFolder(NamespaceFolder(parent)));
    if (!exists) return std::unexpected(NoSuchNamespace(parent));
  }
  auto listing = io_->List(NamespaceFolder(parent));
  if (!listing) {
    // A warehouse that was never written to has no namespaces yet.
    if (parent.empty() && listing.error().kind() == ErrorKind::kNotFound) {
      return std::vector<Namespace>{};
    }
    return std::unexpected(listing.error());
  }
  std::vector<Namespace> out;
  for (const io::FileEntry& entry : *listing) {
    if (!Addressable(entry)) continue;
    FLOE_ASSIGN_OR_RETURN(bool table, IsTableFolder(entry.location));
    if (table) continue;
    Namespace child = parent;
    child.levels.push_back(entry.name);
    out.push_back(std::move(child));
  }
  return out;
}

Result<bool> HadoopCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(Validate(ns));
  return IsNamespaceFolder(NamespaceFolder(ns));
}

Result<StringMap> HadoopCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) return std::unexpected(NoSuchNamespace(ns));
  return StringMap{{"location", NamespaceFolder(ns)}};
}

Status HadoopCatalog::UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                                const std::vector<std::string>& removals) {
  (void)updates;
  (void)removals;
  return Unsupported(
      "cannot change the properties of namespace {}: the hadoop catalog stores no "
      "namespace properties",
      ns.ToString());
}

Status HadoopCatalog::DropNamespace(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) return std::unexpected(NoSuchNamespace(ns));
  std::string folder = NamespaceFolder(ns);
  FLOE_ASSIGN_OR_RETURN(auto listing, io_->List(folder));
  if (!listing.empty()) {
    std::string names;
    for (size_t i = 0; i < listing.size() && i < 5; ++i) {
      names += (i ? ", " : "") + listing[i].name;
    }
    return InvalidArgument("namespace {} is not empty: it holds {} entries ({}{})", ns.ToString(),
                           listing.size(), names, listing.size() > 5 ? ", ..." : "");
  }
  return io_->Delete(folder);
}

// --- tables

Result<std::vector<TableIdentifier>> HadoopCatalog::ListTables(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) return std::unexpected(NoSuchNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(auto listing, io_->List(NamespaceFolder(ns)));
  std::vector<TableIdentifier> out;
  for (const io::FileEntry& entry : listing) {
    if (!Addressable(entry)) continue;
    FLOE_ASSIGN_OR_RETURN(bool table, IsTableFolder(entry.location));
    if (table) out.push_back({ns, entry.name});
  }
  return out;
}

Result<bool> HadoopCatalog::TableExists(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  return IsTableFolder(TableFolder(ident));
}

Result<LoadedTable> HadoopCatalog::LoadTable(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  auto current = ReadCurrentVersion(*io_, TableFolder(ident));
  if (!current) {
    if (current.error().kind() == ErrorKind::kNotFound) {
      FLOE_ASSIGN_OR_RETURN(bool table, IsTableFolder(TableFolder(ident)));
      if (!table) return std::unexpected(NoSuchTable(ident));
    }
    return std::unexpected(current.error().AddContext(fmt::format("loading {}", ident.ToString())));
  }
  return LoadedTable{ident, std::move(current->location), std::move(current->metadata)};
}

Result<LoadedTable> HadoopCatalog::CreateTable(const TableIdentifier& ident,
                                               const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  std::string folder = TableFolder(ident);
  if (!request.location.empty() &&
      io::NormalizeLocation(request.location) != io::NormalizeLocation(folder)) {
    return InvalidArgument("cannot create {} at {}: hadoop tables live in their folder {}",
                           ident.ToString(), request.location, folder);
  }
  if (request.properties.contains(kMetadataPathProperty)) {
    return InvalidArgument("cannot create {}: hadoop tables cannot move their metadata ({})",
                           ident.ToString(), kMetadataPathProperty);
  }
  FLOE_ASSIGN_OR_RETURN(bool exists, IsTableFolder(folder));
  if (exists) return AlreadyExists("table {} already exists", ident.ToString());
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, NewTableMetadata(request, folder, NowMs()));
  return WriteFirstVersion(ident, std::move(metadata));
}

Result<LoadedTable> HadoopCatalog::CommitTable(const TableIdentifier& ident,
                                               const TableCommit& commit) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  std::string folder = TableFolder(ident);
  auto current = ReadCurrentVersion(*io_, folder);
  if (!current && current.error().kind() != ErrorKind::kNotFound) {
    return std::unexpected(current.error());
  }
  const TableMetadata* base = current ? current->metadata.get() : nullptr;
  FLOE_RETURN_IF_ERROR(CheckRequirements(base, commit.requirements));
  if (base == nullptr) {
    if (!IsCreateCommit(commit)) return std::unexpected(NoSuchTable(ident));
    return CreateByCommit(ident, commit);
  }

  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr updated, ApplyUpdates(*base, commit.updates, NowMs()));
  if (updated->location() != base->location()) {
    return InvalidArgument("cannot commit to {}: hadoop tables cannot be relocated",
                           ident.ToString());
  }
  if (!updated->property(kMetadataPathProperty).empty()) {
    return InvalidArgument("cannot commit to {}: hadoop tables cannot move their metadata ({})",
                           ident.ToString(), kMetadataPathProperty);
  }
  std::vector<std::string> removed;
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr next,
                        AddPreviousMetadataFile(*updated, *base, current->location, &removed));
  FLOE_ASSIGN_OR_RETURN(std::string location,
                        CommitNextVersion(*io_, folder, current->version, *next));
  DeleteRemovedMetadataFiles(*io_, *next, removed);
  return LoadedTable{ident, std::move(location), std::move(next)};
}

Result<LoadedTable> HadoopCatalog::WriteFirstVersion(const TableIdentifier& ident,
                                                     TableMetadataPtr metadata) {
  auto location = CommitNextVersion(*io_, TableFolder(ident), 0, *metadata);
  if (!location) {
    if (location.error().kind() == ErrorKind::kCommitFailed) {
      return AlreadyExists("table {} was created concurrently", ident.ToString());
    }
    return std::unexpected(location.error());
  }
  return LoadedTable{ident, std::move(*location), std::move(metadata)};
}

Result<LoadedTable> HadoopCatalog::CreateByCommit(const TableIdentifier& ident,
                                                  const TableCommit& commit) {
  std::string folder = TableFolder(ident);
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ApplyCreate(commit.updates, folder, NowMs()));
  if (io::NormalizeLocation(metadata->location()) != io::NormalizeLocation(folder)) {
    return InvalidArgument("cannot create {} at {}: hadoop tables live in their folder {}",
                           ident.ToString(), metadata->location(), folder);
  }
  if (!metadata->property(kMetadataPathProperty).empty()) {
    return InvalidArgument("cannot create {}: hadoop tables cannot move their metadata ({})",
                           ident.ToString(), kMetadataPathProperty);
  }
  return WriteFirstVersion(ident, std::move(metadata));
}

Status HadoopCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  (void)to;
  return Unsupported("cannot rename {}: hadoop tables are named by their folder", from.ToString());
}

Status HadoopCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  std::string folder = TableFolder(ident);
  FLOE_ASSIGN_OR_RETURN(bool exists, IsTableFolder(folder));
  if (!exists) return std::unexpected(NoSuchTable(ident));
  if (purge) {
    FLOE_ASSIGN_OR_RETURN(TableVersion current, ReadCurrentVersion(*io_, folder));
    FLOE_RETURN_IF_ERROR(DeleteTableFiles(*io_, *current.metadata));
  }
  // As in Iceberg Java, the folder is the table: dropping it deletes it with all it holds.
  return io_->DeleteRecursive(folder);
}

Result<LoadedTable> HadoopCatalog::RegisterTable(const TableIdentifier& ident,
                                                 const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  std::string folder = TableFolder(ident);
  FLOE_ASSIGN_OR_RETURN(bool exists, IsTableFolder(folder));
  if (exists) return AlreadyExists("table {} already exists", ident.ToString());
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadTableMetadata(*io_, metadata_location));
  return WriteFirstVersion(ident, std::move(metadata));
}

Result<FolderTable> OpenTableFolder(const std::string& folder) {
  std::string_view scheme = io::LocationScheme(folder);
  if (!scheme.empty() && !EqualsIgnoreCase(scheme, "file")) {
    // A URI (s3://bucket/wh/db/t): its folders are the parts of its path.
    std::string table_folder = io::NormalizeLocation(folder);
    std::string ns = io::ParentLocation(table_folder);
    std::string warehouse = io::ParentLocation(ns);
    if (io::FileName(table_folder).empty() || io::FileName(ns).empty() || warehouse.empty()) {
      return InvalidArgument("'{}' is not a table folder <warehouse>/<db>/<table>", folder);
    }
    FolderTable table;
    table.ident = TableIdentifier{Namespace{{io::FileName(ns)}}, io::FileName(table_folder)};
    FLOE_RETURN_IF_ERROR(Validate(table.ident));
    FLOE_ASSIGN_OR_RETURN(table.catalog,
                          HadoopCatalog::Make("floe", StringMap{{"warehouse", warehouse}}));
    return table;
  }
  std::filesystem::path path = std::filesystem::absolute(folder).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();
  const std::filesystem::path ns = path.parent_path();
  if (ns.filename().empty() || ns.parent_path().empty()) {
    return InvalidArgument("'{}' is not a table folder <warehouse>/<db>/<table>", folder);
  }
  FolderTable table;
  table.ident = TableIdentifier{Namespace{{ns.filename().string()}}, path.filename().string()};
  FLOE_RETURN_IF_ERROR(Validate(table.ident));
  FLOE_ASSIGN_OR_RETURN(
      table.catalog,
      HadoopCatalog::Make("floe", StringMap{{"warehouse", ns.parent_path().string()}}));
  return table;
}

}  // namespace floe::catalog
