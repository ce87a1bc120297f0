#pragma once

// A catalog in front of another that remembers loaded tables, as the Flink connector's
// `cache-enabled` (default true) and `cache.expiration-interval-ms` (default -1) do: an entry
// expires when it was not used for the interval (Iceberg's CachingCatalog expires after access);
// a negative interval never expires, 0 is refused as the connector refuses it. The catalog's own
// commits replace the entry with the committed table; drops, renames, failed commits and
// Invalidate() remove it. Changes made by other processes are seen after expiry or Invalidate().
//
// Thread-safe; the cache is guarded by one mutex, never held while calling the wrapped catalog.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

inline constexpr std::string_view kCacheEnabledProperty = "cache-enabled";
inline constexpr std::string_view kCacheExpirationProperty = "cache.expiration-interval-ms";
inline constexpr int64_t kCacheNeverExpires = -1;

class CachingCatalog : public Catalog {
 public:
  // expiration_ms: > 0 expires entries unused for that long, < 0 never. now_ms: a clock in
  // milliseconds (tests inject one); defaults to the steady clock.
  static Result<std::shared_ptr<CachingCatalog>> Make(std::shared_ptr<Catalog> inner,
                                                      int64_t expiration_ms,
                                                      std::function<int64_t()> now_ms = {});

  // Wraps inner as `cache-enabled` and `cache.expiration-interval-ms` in properties say (inner
  // itself when caching is off). kInvalidArgument for values that are not booleans / integers,
  // or an interval of 0.
  static Result<std::shared_ptr<Catalog>> Wrap(std::shared_ptr<Catalog> inner,
                                               const StringMap& properties);

  const std::string& name() const override { return inner_->name(); }
  std::shared_ptr<io::FileIO> file_io() const override { return inner_->file_io(); }

  Status CreateNamespace(const Namespace& ns, const StringMap& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<StringMap> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                   const std::vector<std::string>& removals) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<bool> TableExists(const TableIdentifier& ident) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& ident) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& ident,
                                  const CreateTableRequest& request) override;
  Result<LoadedTable> CommitTable(const TableIdentifier& ident, const TableCommit& commit) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DropTable(const TableIdentifier& ident, bool purge) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& ident,
                                    const std::string& metadata_location) override;
  void Invalidate(const TableIdentifier& ident) override;

  const std::shared_ptr<Catalog>& inner() const { return inner_; }

 private:
  CachingCatalog(std::shared_ptr<Catalog> inner, int64_t expiration_ms,
                 std::function<int64_t()> now_ms);

  struct Entry {
    LoadedTable table;
    int64_t last_access_ms = 0;
  };

  void Put(const LoadedTable& table);
  // Puts a table loaded from inner, unless a write happened since the load began (its result may
  // be older than what that write cached or removed).
  void PutLoaded(const LoadedTable& table, uint64_t writes_before);
  // Puts the table on success, forgets ident on failure.
  Result<LoadedTable> Remember(const TableIdentifier& ident, Result<LoadedTable> result);

  std::shared_ptr<Catalog> inner_;
  int64_t expiration_ms_;
  std::function<int64_t()> now_ms_;
  std::mutex mutex_;
  std::map<TableIdentifier, Entry> entries_;
  uint64_t writes_ = 0;  // bumped by every Put and Invalidate
};

}  // namespace floe::catalog
