#include "floe/catalog/plugin/plugin_catalog.h"

#include <fmt/format.h>

#include "floe/catalog/metadata_files.h"
#include "floe/catalog/new_table.h"
#include "floe/catalog/plugin/plugin_library_internal.h"
#include "floe/catalog/pointer_commit.h"
#include "floe/catalog/purge.h"
#include "floe/io/file_io.h"
#include "floe/io/resolving_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/util/clock.h"

namespace floe::catalog {
namespace {

// Collects what a plugin hands back.
class Sink {
 public:
  Sink() : sink_{this, &Sink::Put} {}
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  floe_plugin_sink* get() { return &sink_; }
  std::vector<std::string>& values() { return values_; }

 private:
  static void Put(void* context, const char* data, size_t size) {
    static_cast<Sink*>(context)->values_.emplace_back(data, size);
  }

  floe_plugin_sink sink_;
  std::vector<std::string> values_;
};

// A namespace or table identifier as the C ABI takes it; borrows the strings of what it views.
class Ident {
 public:
  explicit Ident(const Namespace& ns, const std::string* name = nullptr) {
    for (const std::string& level : ns.levels) levels_.push_back(level.c_str());
    ident_ = {levels_.data(), levels_.size(), name != nullptr ? name->c_str() : nullptr};
  }
  explicit Ident(const TableIdentifier& table) : Ident(table.ns, &table.name) {}
  Ident(const Ident&) = delete;
  Ident& operator=(const Ident&) = delete;
  const floe_plugin_ident* get() const { return &ident_; }

 private:
  std::vector<const char*> levels_;
  floe_plugin_ident ident_;
};

// Key/value arrays viewing a StringMap.
struct Pairs {
  explicit Pairs(const StringMap& map) {
    for (const auto& [key, value] : map) {
      keys.push_back(key.c_str());
      values.push_back(value.c_str());
    }
  }
  std::vector<const char*> keys;
  std::vector<const char*> values;
};

Status ToStatus(int32_t code, Sink& error, std::string_view what) {
  if (code == FLOE_PLUGIN_OK) return {};
  std::string message = error.values().empty() ? "no message" : error.values().front();
  message = fmt::format("catalog plugin: {}: {}", what, message);
  switch (code) {
    case FLOE_PLUGIN_INVALID_ARGUMENT:
      return std::unexpected(Error(ErrorKind::kInvalidArgument, message));
    case FLOE_PLUGIN_NOT_FOUND:
      return std::unexpected(Error(ErrorKind::kNotFound, message));
    case FLOE_PLUGIN_ALREADY_EXISTS:
      return std::unexpected(Error(ErrorKind::kAlreadyExists, message));
    case FLOE_PLUGIN_COMMIT_FAILED:
      return std::unexpected(Error(ErrorKind::kCommitFailed, message, /*retryable=*/true));
    case FLOE_PLUGIN_COMMIT_STATE_UNKNOWN:
      return std::unexpected(Error(ErrorKind::kCommitStateUnknown, message));
    case FLOE_PLUGIN_IO:
      return std::unexpected(Error(ErrorKind::kIO, message));
    case FLOE_PLUGIN_UNSUPPORTED:
      return std::unexpected(Error(ErrorKind::kUnsupported, message));
    default:
      return std::unexpected(
          Error(ErrorKind::kInternal, fmt::format("{} (unknown status code {})", message, code)));
  }
}

Result<std::string> Single(Sink& out, std::string_view what) {
  if (out.values().size() != 1) {
    return InternalError("catalog plugin: {}: expected one result, got {}", what,
                         out.values().size());
  }
  return std::move(out.values().front());
}

class PluginCatalog : public Catalog {
 public:
  PluginCatalog(std::string name, std::shared_ptr<PluginLibrary> library, void* handle,
                std::shared_ptr<io::FileIO> io)
      : name_(std::move(name)), library_(std::move(library)), handle_(handle), io_(std::move(io)) {}
  ~PluginCatalog() override { api().destroy(handle_); }
  PluginCatalog(const PluginCatalog&) = delete;
  PluginCatalog& operator=(const PluginCatalog&) = delete;

  const std::string& name() const override { return name_; }
  std::shared_ptr<io::FileIO> file_io() const override { return io_; }

  Status CreateNamespace(const Namespace& ns, const StringMap& properties) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    Ident c_ns(ns);
    Pairs pairs(properties);
    Sink error;
    return ToStatus(api().create_namespace(handle_, c_ns.get(), pairs.keys.data(),
                                           pairs.values.data(), pairs.keys.size(), error.get()),
                    error, "create namespace " + ns.ToString());
  }

  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override {
    if (!parent.empty()) FLOE_RETURN_IF_ERROR(Validate(parent));
    Ident c_parent(parent);
    Sink out, error;
    FLOE_RETURN_IF_ERROR(
        ToStatus(api().list_namespaces(handle_, c_parent.get(), out.get(), error.get()), error,
                 "list namespaces"));
    std::vector<Namespace> children;
    for (std::string& level : out.values()) {
      FLOE_RETURN_IF_ERROR(ValidateIdentifierPart(level, "namespace from the plugin"));
      Namespace child = parent;
      child.levels.push_back(std::move(level));
      children.push_back(std::move(child));
    }
    return children;
  }

  Result<bool> NamespaceExists(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    Ident c_ns(ns);
    Sink error;
    int32_t exists = 0;
    FLOE_RETURN_IF_ERROR(ToStatus(api().namespace_exists(handle_, c_ns.get(), &exists, error.get()),
                                  error, "namespace exists " + ns.ToString()));
    return exists != 0;
  }

  Result<StringMap> LoadNamespaceProperties(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    Ident c_ns(ns);
    Sink out, error;
    FLOE_RETURN_IF_ERROR(
        ToStatus(api().load_namespace_properties(handle_, c_ns.get(), out.get(), error.get()),
                 error, "load namespace " + ns.ToString()));
    if (out.values().size() % 2 != 0) {
      return InternalError("catalog plugin: namespace {}: a property key without a value",
                           ns.ToString());
    }
    StringMap properties;
    for (size_t i = 0; i < out.values().size(); i += 2) {
      properties[out.values()[i]] = out.values()[i + 1];
    }
    return properties;
  }

  Status UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                   const std::vector<std::string>& removals) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    Ident c_ns(ns);
    Pairs pairs(updates);
    std::vector<const char*> c_removals;
    for (const std::string& key : removals) c_removals.push_back(key.c_str());
    Sink error;
    return ToStatus(api().update_namespace_properties(
                        handle_, c_ns.get(), pairs.keys.data(), pairs.values.data(),
                        pairs.keys.size(), c_removals.data(), c_removals.size(), error.get()),
                    error, "update namespace " + ns.ToString());
  }

  Status DropNamespace(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    Ident c_ns(ns);
    Sink error;
    return ToStatus(api().drop_namespace(handle_, c_ns.get(), error.get()), error,
                    "drop namespace " + ns.ToString());
  }

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    Ident c_ns(ns);
    Sink out, error;
    FLOE_RETURN_IF_ERROR(ToStatus(api().list_tables(handle_, c_ns.get(), out.get(), error.get()),
                                  error, "list tables in " + ns.ToString()));
    std::vector<TableIdentifier> tables;
    for (std::string& name : out.values()) {
      FLOE_RETURN_IF_ERROR(ValidateIdentifierPart(name, "table name from the plugin"));
      tables.push_back({ns, std::move(name)});
    }
    return tables;
  }

  Result<bool> TableExists(const TableIdentifier& ident) override {
    auto location = MetadataLocation(ident);
    if (location) return true;
    if (location.error().kind() == ErrorKind::kNotFound) return false;
    return std::unexpected(location.error());
  }

  Result<LoadedTable> LoadTable(const TableIdentifier& ident) override {
    FLOE_ASSIGN_OR_RETURN(std::string location, MetadataLocation(ident));
    FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadTableMetadata(*io_, location));
    return LoadedTable{ident, std::move(location), std::move(metadata)};
  }

  Result<LoadedTable> CreateTable(const TableIdentifier& ident,
                                  const CreateTableRequest& request) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    Ident c_ident(ident);
    std::string location = request.location;
    if (location.empty()) {
      Sink out, error;
      FLOE_RETURN_IF_ERROR(
          ToStatus(api().default_table_location(handle_, c_ident.get(), out.get(), error.get()),
                   error, "default location of " + ident.ToString()));
      FLOE_ASSIGN_OR_RETURN(location, Single(out, "default table location"));
    }
    FLOE_ASSIGN_OR_RETURN(bool exists, TableExists(ident));
    if (exists) return AlreadyExists("table {} already exists", ident.ToString());
    FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata,
                          NewTableMetadata(request, std::move(location), NowMs()));
    return CreateByPointer(
        *io_, ident, std::move(metadata),
        [&](const std::string& file, const TableMetadataPtr&) { return AddTable(ident, file); });
  }

  Result<LoadedTable> CommitTable(const TableIdentifier& ident,
                                  const TableCommit& commit) override {
    auto base = LoadTable(ident);
    if (!base && base.error().kind() != ErrorKind::kNotFound) {
      return std::unexpected(base.error());
    }
    LoadedTable current = base ? std::move(*base) : LoadedTable{ident, "", nullptr};
    Ident c_ident(ident);
    return CommitByPointerSwap(
        *io_, current, commit, [&](const std::string& new_location, const TableMetadataPtr&) {
          Sink error;
          return ToStatus(
              api().commit_table(handle_, c_ident.get(), current.metadata_location.c_str(),
                                 new_location.c_str(), error.get()),
              error, "commit to " + ident.ToString());
        });
  }

  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override {
    FLOE_RETURN_IF_ERROR(Validate(from));
    FLOE_RETURN_IF_ERROR(Validate(to));
    Ident c_from(from), c_to(to);
    Sink error;
    return ToStatus(api().rename_table(handle_, c_from.get(), c_to.get(), error.get()), error,
                    fmt::format("rename {} to {}", from.ToString(), to.ToString()));
  }

  Status DropTable(const TableIdentifier& ident, bool purge) override {
    std::optional<LoadedTable> table;
    if (purge) {
      FLOE_ASSIGN_OR_RETURN(table, LoadTable(ident));
    }
    FLOE_RETURN_IF_ERROR(Validate(ident));
    Ident c_ident(ident);
    Sink error;
    FLOE_RETURN_IF_ERROR(ToStatus(api().drop_table(handle_, c_ident.get(), error.get()), error,
                                  "drop " + ident.ToString()));
    if (table) {
      FLOE_RETURN_IF_ERROR(DeleteTableFiles(*io_, *table->metadata));
      (void)io_->Delete(table->metadata_location);
    }
    return {};
  }

  Result<LoadedTable> RegisterTable(const TableIdentifier& ident,
                                    const std::string& metadata_location) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadTableMetadata(*io_, metadata_location));
    FLOE_RETURN_IF_ERROR(AddTable(ident, metadata_location));
    return LoadedTable{ident, metadata_location, std::move(metadata)};
  }

 private:
  const floe_catalog_plugin& api() const { return library_->api(); }

  Result<std::string> MetadataLocation(const TableIdentifier& ident) {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    Ident c_ident(ident);
    Sink out, error;
    FLOE_RETURN_IF_ERROR(ToStatus(api().load_table(handle_, c_ident.get(), out.get(), error.get()),
                                  error, "load " + ident.ToString()));
    return Single(out, "load table");
  }

  Status AddTable(const TableIdentifier& ident, const std::string& metadata_location) {
    Ident c_ident(ident);
    Sink error;
    return ToStatus(
        api().create_table(handle_, c_ident.get(), metadata_location.c_str(), error.get()), error,
        "create " + ident.ToString());
  }

  std::string name_;
  std::shared_ptr<PluginLibrary> library_;
  void* handle_;
  std::shared_ptr<io::FileIO> io_;
};

}  // namespace

Result<std::shared_ptr<Catalog>> LoadPluginCatalog(const std::string& path, const std::string& name,
                                                   const StringMap& properties,
                                                   std::shared_ptr<io::FileIO> io) {
  FLOE_ASSIGN_OR_RETURN(auto library, PluginLibrary::Open(path));
  Pairs pairs(properties);
  Sink error;
  void* handle = nullptr;
  FLOE_RETURN_IF_ERROR(
      ToStatus(library->api().create(name.c_str(), pairs.keys.data(), pairs.values.data(),
                                     pairs.keys.size(), &handle, error.get()),
               error, fmt::format("create catalog {} ({})", name, path)));
  if (io == nullptr) io = io::MakeFileIO(properties);
  return std::shared_ptr<Catalog>(
      std::make_shared<PluginCatalog>(name, std::move(library), handle, std::move(io)));
}

}  // namespace floe::catalog
