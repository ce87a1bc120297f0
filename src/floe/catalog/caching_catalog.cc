#include "floe/catalog/caching_catalog.h"

#include <charconv>
#include <chrono>

namespace floe::catalog {
namespace {

int64_t SteadyNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

CachingCatalog::CachingCatalog(std::shared_ptr<Catalog> inner, int64_t expiration_ms,
                               std::function<int64_t()> now_ms)
    : inner_(std::move(inner)), expiration_ms_(expiration_ms), now_ms_(std::move(now_ms)) {}

Result<std::shared_ptr<CachingCatalog>> CachingCatalog::Make(std::shared_ptr<Catalog> inner,
                                                             int64_t expiration_ms,
                                                             std::function<int64_t()> now_ms) {
  if (inner == nullptr) return InvalidArgument("caching catalog: no catalog to wrap");
  if (expiration_ms == 0) {
    return InvalidArgument(
        "{} is not allowed to be 0 (use cache-enabled=false to turn the cache "
        "off, or a negative value to never expire)",
        kCacheExpirationProperty);
  }
  if (!now_ms) now_ms = SteadyNowMs;
  return std::shared_ptr<CachingCatalog>(
      new CachingCatalog(std::move(inner), expiration_ms, std::move(now_ms)));
}

Result<std::shared_ptr<Catalog>> CachingCatalog::Wrap(std::shared_ptr<Catalog> inner,
                                                      const StringMap& properties) {
  bool enabled = true;
  if (auto it = properties.find(kCacheEnabledProperty); it != properties.end()) {
    if (it->second == "true" || it->second == "TRUE" || it->second == "True") {
      enabled = true;
    } else if (it->second == "false" || it->second == "FALSE" || it->second == "False") {
      enabled = false;
    } else {
      return InvalidArgument("{}: '{}' is not true or false", kCacheEnabledProperty, it->second);
    }
  }
  int64_t expiration_ms = kCacheNeverExpires;
  if (auto it = properties.find(kCacheExpirationProperty); it != properties.end()) {
    const std::string& text = it->second;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), expiration_ms);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return InvalidArgument("{}: '{}' is not an integer", kCacheExpirationProperty, text);
    }
  }
  if (!enabled) return inner;
  FLOE_ASSIGN_OR_RETURN(auto cached, Make(std::move(inner), expiration_ms));
  return std::shared_ptr<Catalog>(std::move(cached));
}

void CachingCatalog::Put(const LoadedTable& table) {
  std::lock_guard lock(mutex_);
  entries_[table.ident] = Entry{table, now_ms_()};
  ++writes_;
}

void CachingCatalog::PutLoaded(const LoadedTable& table, uint64_t writes_before) {
  std::lock_guard lock(mutex_);
  if (writes_ != writes_before) return;
  entries_[table.ident] = Entry{table, now_ms_()};
}

void CachingCatalog::Invalidate(const TableIdentifier& ident) {
  {
    std::lock_guard lock(mutex_);
    entries_.erase(ident);
    ++writes_;
  }
  inner_->Invalidate(ident);
}

Result<LoadedTable> CachingCatalog::Remember(const TableIdentifier& ident,
                                             Result<LoadedTable> result) {
  if (result) {
    Put(*result);
  } else {
    Invalidate(ident);
  }
  return result;
}

Result<LoadedTable> CachingCatalog::LoadTable(const TableIdentifier& ident) {
  uint64_t writes_before = 0;
  {
    std::lock_guard lock(mutex_);
    writes_before = writes_;
    auto it = entries_.find(ident);
    if (it != entries_.end()) {
      int64_t now = now_ms_();
      if (expiration_ms_ < 0 || now - it->second.last_access_ms < expiration_ms_) {
        it->second.last_access_ms = now;
        return it->second.table;
      }
      entries_.erase(it);
    }
  }
  auto loaded = inner_->LoadTable(ident);
  if (loaded) PutLoaded(*loaded, writes_before);
  return loaded;
}

Result<LoadedTable> CachingCatalog::CreateTable(const TableIdentifier& ident,
                                                const CreateTableRequest& request) {
  return Remember(ident, inner_->CreateTable(ident, request));
}

Result<LoadedTable> CachingCatalog::CommitTable(const TableIdentifier& ident,
                                                const TableCommit& commit) {
  return Remember(ident, inner_->CommitTable(ident, commit));
}

Result<LoadedTable> CachingCatalog::RegisterTable(const TableIdentifier& ident,
                                                  const std::string& metadata_location) {
  return Remember(ident, inner_->RegisterTable(ident, metadata_location));
}

Status CachingCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  Status status = inner_->RenameTable(from, to);
  Invalidate(from);
  Invalidate(to);
  return status;
}

Status CachingCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  Status status = inner_->DropTable(ident, purge);
  Invalidate(ident);
  return status;
}

Result<bool> CachingCatalog::TableExists(const TableIdentifier& ident) {
  return inner_->TableExists(ident);
}
Result<std::vector<TableIdentifier>> CachingCatalog::ListTables(const Namespace& ns) {
  return inner_->ListTables(ns);
}
Status CachingCatalog::CreateNamespace(const Namespace& ns, const StringMap& properties) {
  return inner_->CreateNamespace(ns, properties);
}
Result<std::vector<Namespace>> CachingCatalog::ListNamespaces(const Namespace& parent) {
  return inner_->ListNamespaces(parent);
}
Result<bool> CachingCatalog::NamespaceExists(const Namespace& ns) {
  return inner_->NamespaceExists(ns);
}
Result<StringMap> CachingCatalog::LoadNamespaceProperties(const Namespace& ns) {
  return inner_->LoadNamespaceProperties(ns);
}
Status CachingCatalog::UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                                 const std::vector<std::string>& removals) {
  return inner_->UpdateNamespaceProperties(ns, updates, removals);
}
Status CachingCatalog::DropNamespace(const Namespace& ns) { return inner_->DropNamespace(ns); }

}  // namespace floe::catalog
