#include "floe/catalog/memory_catalog.h"

#include <fmt/format.h>

#include "floe/catalog/metadata_files.h"
#include "floe/catalog/new_table.h"
#include "floe/catalog/pointer_commit.h"
#include "floe/io/file_io.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/util/clock.h"

namespace floe::catalog {
namespace {

bool IsPrefix(const Namespace& prefix, const Namespace& ns) {
  return prefix.levels.size() <= ns.levels.size() &&
         std::equal(prefix.levels.begin(), prefix.levels.end(), ns.levels.begin());
}

}  // namespace

MemoryCatalog::MemoryCatalog(std::string name, std::shared_ptr<io::FileIO> io,
                             std::string warehouse)
    : name_(std::move(name)), io_(std::move(io)), warehouse_(std::move(warehouse)) {}

Status MemoryCatalog::CheckNamespaceLocked(const Namespace& ns) const {
  if (!namespaces_.contains(ns)) return NotFound("namespace '{}' does not exist", ns.ToString());
  return Ok();
}

Status MemoryCatalog::CreateNamespace(const Namespace& ns, const StringMap& properties) {
  FLOE_RETURN_IF_ERROR(Validate(ns));
  std::lock_guard lock(mutex_);
  if (!namespaces_.emplace(ns, properties).second) {
    return AlreadyExists("namespace '{}' already exists", ns.ToString());
  }
  return Ok();
}

Result<std::vector<Namespace>> MemoryCatalog::ListNamespaces(const Namespace& parent) {
  std::lock_guard lock(mutex_);
  if (!parent.empty()) FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(parent));
  std::vector<Namespace> children;
  for (const auto& [ns, properties] : namespaces_) {
    if (ns.levels.size() == parent.levels.size() + 1 && IsPrefix(parent, ns)) {
      children.push_back(ns);
    }
  }
  return children;
}

Result<bool> MemoryCatalog::NamespaceExists(const Namespace& ns) {
  std::lock_guard lock(mutex_);
  return namespaces_.contains(ns);
}

Result<StringMap> MemoryCatalog::LoadNamespaceProperties(const Namespace& ns) {
  std::lock_guard lock(mutex_);
  FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(ns));
  return namespaces_.at(ns);
}

Status MemoryCatalog::UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                                const std::vector<std::string>& removals) {
  std::lock_guard lock(mutex_);
  FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(ns));
  StringMap& properties = namespaces_.at(ns);
  for (const std::string& key : removals) properties.erase(key);
  for (const auto& [key, value] : updates) properties.insert_or_assign(key, value);
  return Ok();
}

Status MemoryCatalog::DropNamespace(const Namespace& ns) {
  std::lock_guard lock(mutex_);
  FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(ns));
  for (const auto& [ident, entry] : tables_) {
    if (ident.ns == ns) {
      return InvalidArgument("namespace '{}' is not empty: it holds table '{}'", ns.ToString(),
                             ident.name);
    }
  }
  for (const auto& [other, properties] : namespaces_) {
    if (other != ns && IsPrefix(ns, other)) {
      return InvalidArgument("namespace '{}' is not empty: it holds namespace '{}'", ns.ToString(),
                             other.ToString());
    }
  }
  namespaces_.erase(ns);
  return Ok();
}

Result<std::vector<TableIdentifier>> MemoryCatalog::ListTables(const Namespace& ns) {
  std::lock_guard lock(mutex_);
  FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(ns));
  std::vector<TableIdentifier> tables;
  for (const auto& [ident, entry] : tables_) {
    if (ident.ns == ns) tables.push_back(ident);
  }
  return tables;
}

Result<bool> MemoryCatalog::TableExists(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  std::lock_guard lock(mutex_);
  return tables_.contains(ident);
}

Result<LoadedTable> MemoryCatalog::LoadTable(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  std::lock_guard lock(mutex_);
  auto it = tables_.find(ident);
  if (it == tables_.end()) return NotFound("table '{}' does not exist", ident.ToString());
  return LoadedTable{ident, it->second.metadata_location, it->second.metadata};
}

Result<LoadedTable> MemoryCatalog::CreateTable(const TableIdentifier& ident,
                                               const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  {
    std::lock_guard lock(mutex_);
    FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(ident.ns));
    if (tables_.contains(ident)) {
      return AlreadyExists("table '{}' already exists", ident.ToString());
    }
  }
  std::string location =
      request.location.empty() ? DefaultTableLocation(warehouse_, ident) : request.location;
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata,
                        NewTableMetadata(request, std::move(location), NowMs()));
  return CreateByPointer(*io_, ident, metadata, AddTable(ident));
}

SwapMetadataLocation MemoryCatalog::AddTable(const TableIdentifier& ident) {
  return [this, ident](const std::string& metadata_location, const TableMetadataPtr& written) {
    std::lock_guard lock(mutex_);
    if (!tables_.emplace(ident, Entry{metadata_location, written}).second) {
      return Status(AlreadyExists("table '{}' already exists", ident.ToString()));
    }
    return Ok();
  };
}

Result<LoadedTable> MemoryCatalog::CommitTable(const TableIdentifier& ident,
                                               const TableCommit& commit) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  LoadedTable base{.ident = ident};
  {
    std::lock_guard lock(mutex_);
    auto it = tables_.find(ident);
    if (it != tables_.end()) {
      base.metadata_location = it->second.metadata_location;
      base.metadata = it->second.metadata;
    } else if (IsCreateCommit(commit)) {
      FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(ident.ns));
    }
  }
  if (!base.metadata && IsCreateCommit(commit)) {
    return CreateByCommit(*io_, ident, commit, DefaultTableLocation(warehouse_, ident),
                          AddTable(ident));
  }
  auto swap = [&](const std::string& new_location, const TableMetadataPtr& metadata) -> Status {
    std::lock_guard lock(mutex_);
    auto it = tables_.find(ident);
    if (it == tables_.end() || it->second.metadata_location != base.metadata_location) {
      Error error(ErrorKind::kCommitFailed,
                  fmt::format("table '{}' was changed by another commit", ident.ToString()));
      error.SetRetryable();
      return std::unexpected(std::move(error));
    }
    it->second = Entry{new_location, metadata};
    return Ok();
  };
  return CommitByPointerSwap(*io_, base, commit, swap);
}

Status MemoryCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(Validate(from));
  FLOE_RETURN_IF_ERROR(Validate(to));
  std::lock_guard lock(mutex_);
  auto it = tables_.find(from);
  if (it == tables_.end()) return NotFound("table '{}' does not exist", from.ToString());
  FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(to.ns));
  if (tables_.contains(to)) return AlreadyExists("table '{}' already exists", to.ToString());
  Entry entry = std::move(it->second);
  tables_.erase(it);
  tables_.emplace(to, std::move(entry));
  return Ok();
}

Status MemoryCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  Entry entry;
  {
    std::lock_guard lock(mutex_);
    auto it = tables_.find(ident);
    if (it == tables_.end()) return NotFound("table '{}' does not exist", ident.ToString());
    entry = std::move(it->second);
    tables_.erase(it);
  }
  if (purge) return io_->DeleteRecursive(entry.metadata->location());
  return Ok();
}

Result<LoadedTable> MemoryCatalog::RegisterTable(const TableIdentifier& ident,
                                                 const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(Validate(ident));
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadTableMetadata(*io_, metadata_location));
  std::lock_guard lock(mutex_);
  FLOE_RETURN_IF_ERROR(CheckNamespaceLocked(ident.ns));
  if (!tables_.emplace(ident, Entry{metadata_location, metadata}).second) {
    return AlreadyExists("table '{}' already exists", ident.ToString());
  }
  return LoadedTable{ident, metadata_location, std::move(metadata)};
}

}  // namespace floe::catalog
