// An example floe catalog plugin: an in-memory metastore, the smallest thing that serves the C ABI
// of floe_catalog_plugin.h. It uses nothing of floe but that header, as a plugin built elsewhere
// would. Tables are lost when the catalog is destroyed; their metadata files stay.
//
// Properties: `warehouse` (required) is where new tables go, `<warehouse>/<levels>/<table>`;
// `example.namespaces` = comma-separated namespaces to start with, each holding as its properties
// every property the plugin was created with (so callers can see what reached the plugin).

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "floe/catalog/plugin/floe_catalog_plugin.h"

namespace {

using Path = std::vector<std::string>;

struct Store {
  std::string name;
  std::string warehouse;
  std::mutex mutex;
  std::map<Path, std::map<std::string, std::string>> namespaces;
  std::map<Path, std::string> tables;  // namespace levels + table name -> metadata location
};

void Put(floe_plugin_sink* sink, const std::string& text) {
  sink->put(sink->context, text.data(), text.size());
}

int32_t Fail(floe_plugin_sink* error, int32_t code, const std::string& message) {
  Put(error, message);
  return code;
}

Path NamespacePath(const floe_plugin_ident* ident) {
  return Path(ident->levels, ident->levels + ident->level_count);
}

Path TablePath(const floe_plugin_ident* ident) {
  Path path = NamespacePath(ident);
  path.push_back(ident->name);
  return path;
}

std::string Dotted(const Path& path) {
  std::string out;
  for (const std::string& part : path) out += (out.empty() ? "" : ".") + part;
  return out;
}

Store& Of(void* handle) { return *static_cast<Store*>(handle); }

int32_t Create(const char* name, const char* const* keys, const char* const* values, size_t count,
               void** handle, floe_plugin_sink* error) {
  auto* store = new Store;
  store->name = name;
  std::map<std::string, std::string> properties;
  for (size_t i = 0; i < count; ++i) properties[keys[i]] = values[i];
  auto warehouse = properties.find("warehouse");
  if (warehouse == properties.end() || warehouse->second.empty()) {
    delete store;
    return Fail(error, FLOE_PLUGIN_INVALID_ARGUMENT, "the 'warehouse' property is required");
  }
  store->warehouse = warehouse->second;
  while (store->warehouse.size() > 1 && store->warehouse.back() == '/') store->warehouse.pop_back();
  std::string list = properties.count("example.namespaces") ? properties["example.namespaces"] : "";
  size_t begin = 0;
  while (begin < list.size()) {
    size_t comma = list.find(',', begin);
    if (comma == std::string::npos) comma = list.size();
    if (comma > begin) store->namespaces[Path{list.substr(begin, comma - begin)}] = properties;
    begin = comma + 1;
  }
  *handle = store;
  return FLOE_PLUGIN_OK;
}

void Destroy(void* handle) { delete static_cast<Store*>(handle); }

int32_t CreateNamespace(void* handle, const floe_plugin_ident* ns, const char* const* keys,
                        const char* const* values, size_t count, floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  Path path = NamespacePath(ns);
  if (store.namespaces.count(path)) {
    return Fail(error, FLOE_PLUGIN_ALREADY_EXISTS, "namespace " + Dotted(path) + " exists");
  }
  auto& properties = store.namespaces[path];
  for (size_t i = 0; i < count; ++i) properties[keys[i]] = values[i];
  return FLOE_PLUGIN_OK;
}

int32_t ListNamespaces(void* handle, const floe_plugin_ident* parent, floe_plugin_sink* out,
                       floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  Path prefix = NamespacePath(parent);
  if (!prefix.empty() && !store.namespaces.count(prefix)) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "namespace " + Dotted(prefix) + " does not exist");
  }
  for (const auto& [path, properties] : store.namespaces) {
    if (path.size() == prefix.size() + 1 &&
        std::equal(prefix.begin(), prefix.end(), path.begin())) {
      Put(out, path.back());
    }
  }
  return FLOE_PLUGIN_OK;
}

int32_t NamespaceExists(void* handle, const floe_plugin_ident* ns, int32_t* exists,
                        floe_plugin_sink*) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  *exists = store.namespaces.count(NamespacePath(ns)) ? 1 : 0;
  return FLOE_PLUGIN_OK;
}

int32_t LoadNamespaceProperties(void* handle, const floe_plugin_ident* ns, floe_plugin_sink* out,
                                floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  auto it = store.namespaces.find(NamespacePath(ns));
  if (it == store.namespaces.end()) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "namespace does not exist");
  }
  for (const auto& [key, value] : it->second) {
    Put(out, key);
    Put(out, value);
  }
  return FLOE_PLUGIN_OK;
}

int32_t UpdateNamespaceProperties(void* handle, const floe_plugin_ident* ns,
                                  const char* const* keys, const char* const* values, size_t count,
                                  const char* const* removals, size_t removal_count,
                                  floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  auto it = store.namespaces.find(NamespacePath(ns));
  if (it == store.namespaces.end()) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "namespace does not exist");
  }
  for (size_t i = 0; i < removal_count; ++i) it->second.erase(removals[i]);
  for (size_t i = 0; i < count; ++i) it->second[keys[i]] = values[i];
  return FLOE_PLUGIN_OK;
}

int32_t DropNamespace(void* handle, const floe_plugin_ident* ns, floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  Path path = NamespacePath(ns);
  if (!store.namespaces.count(path)) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "namespace " + Dotted(path) + " does not exist");
  }
  for (const auto& [table, location] : store.tables) {
    if (table.size() == path.size() + 1 && std::equal(path.begin(), path.end(), table.begin())) {
      return Fail(error, FLOE_PLUGIN_INVALID_ARGUMENT,
                  "namespace " + Dotted(path) + " holds table " + table.back());
    }
  }
  store.namespaces.erase(path);
  return FLOE_PLUGIN_OK;
}

int32_t ListTables(void* handle, const floe_plugin_ident* ns, floe_plugin_sink* out,
                   floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  Path path = NamespacePath(ns);
  if (!store.namespaces.count(path)) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "namespace " + Dotted(path) + " does not exist");
  }
  for (const auto& [table, location] : store.tables) {
    if (table.size() == path.size() + 1 && std::equal(path.begin(), path.end(), table.begin())) {
      Put(out, table.back());
    }
  }
  return FLOE_PLUGIN_OK;
}

int32_t LoadTable(void* handle, const floe_plugin_ident* table, floe_plugin_sink* out,
                  floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  auto it = store.tables.find(TablePath(table));
  if (it == store.tables.end()) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "table " + Dotted(TablePath(table)) + " not found");
  }
  Put(out, it->second);
  return FLOE_PLUGIN_OK;
}

int32_t DefaultTableLocation(void* handle, const floe_plugin_ident* table, floe_plugin_sink* out,
                             floe_plugin_sink*) {
  std::string location = Of(handle).warehouse;
  for (const std::string& part : TablePath(table)) location += "/" + part;
  Put(out, location);
  return FLOE_PLUGIN_OK;
}

int32_t CreateTable(void* handle, const floe_plugin_ident* table, const char* metadata_location,
                    floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  Path path = TablePath(table);
  if (!store.namespaces.count(NamespacePath(table))) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "namespace of " + Dotted(path) + " does not exist");
  }
  if (!store.tables.emplace(path, metadata_location).second) {
    return Fail(error, FLOE_PLUGIN_ALREADY_EXISTS, "table " + Dotted(path) + " exists");
  }
  return FLOE_PLUGIN_OK;
}

int32_t CommitTable(void* handle, const floe_plugin_ident* table, const char* expected_location,
                    const char* new_location, floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  auto it = store.tables.find(TablePath(table));
  if (it == store.tables.end()) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "table " + Dotted(TablePath(table)) + " not found");
  }
  if (it->second != expected_location) {
    return Fail(error, FLOE_PLUGIN_COMMIT_FAILED,
                "table " + Dotted(TablePath(table)) + " moved on to " + it->second);
  }
  it->second = new_location;
  return FLOE_PLUGIN_OK;
}

int32_t RenameTable(void* handle, const floe_plugin_ident* from, const floe_plugin_ident* to,
                    floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  auto it = store.tables.find(TablePath(from));
  if (it == store.tables.end()) return Fail(error, FLOE_PLUGIN_NOT_FOUND, "table not found");
  if (!store.namespaces.count(NamespacePath(to))) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "target namespace does not exist");
  }
  if (store.tables.count(TablePath(to))) {
    return Fail(error, FLOE_PLUGIN_ALREADY_EXISTS, "target table exists");
  }
  store.tables[TablePath(to)] = it->second;
  store.tables.erase(it);
  return FLOE_PLUGIN_OK;
}

int32_t DropTable(void* handle, const floe_plugin_ident* table, floe_plugin_sink* error) {
  Store& store = Of(handle);
  std::lock_guard lock(store.mutex);
  if (store.tables.erase(TablePath(table)) == 0) {
    return Fail(error, FLOE_PLUGIN_NOT_FOUND, "table not found");
  }
  return FLOE_PLUGIN_OK;
}

const floe_catalog_plugin kPlugin = {
    FLOE_CATALOG_PLUGIN_ABI_VERSION,
    sizeof(floe_catalog_plugin),
    Create,
    Destroy,
    CreateNamespace,
    ListNamespaces,
    NamespaceExists,
    LoadNamespaceProperties,
    UpdateNamespaceProperties,
    DropNamespace,
    ListTables,
    LoadTable,
    DefaultTableLocation,
    CreateTable,
    CommitTable,
    RenameTable,
    DropTable,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const floe_catalog_plugin* floe_catalog_plugin_v1(
    uint32_t host_abi_version) {
  return host_abi_version == FLOE_CATALOG_PLUGIN_ABI_VERSION ? &kPlugin : nullptr;
}
