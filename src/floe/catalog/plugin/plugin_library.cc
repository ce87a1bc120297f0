#include <dlfcn.h>

#include <cstddef>

#include "floe/catalog/plugin/plugin_library_internal.h"

namespace floe::catalog {
namespace {

std::string DlError() {
  const char* message = dlerror();
  return message != nullptr ? message : "unknown error";
}

// Every function pointer up to the last one the host knows must be set.
bool Complete(const floe_catalog_plugin& api) {
  return api.create && api.destroy && api.create_namespace && api.list_namespaces &&
         api.namespace_exists && api.load_namespace_properties && api.update_namespace_properties &&
         api.drop_namespace && api.list_tables && api.load_table && api.default_table_location &&
         api.create_table && api.commit_table && api.rename_table && api.drop_table;
}

}  // namespace

Result<std::shared_ptr<PluginLibrary>> PluginLibrary::Open(const std::string& path) {
  if (path.empty()) return InvalidArgument("catalog-impl: empty library path");
  // RTLD_LOCAL keeps the plugin's own symbols (it may link another copy of anything) to itself.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return InvalidArgument("catalog-impl {}: cannot load the library: {}", path, DlError());
  }
  auto close = [&] { dlclose(handle); };
  dlerror();
  void* symbol = dlsym(handle, FLOE_CATALOG_PLUGIN_ENTRY);
  if (symbol == nullptr) {
    std::string error = DlError();
    close();
    return InvalidArgument("catalog-impl {}: not a floe catalog plugin: no symbol {} ({})", path,
                           FLOE_CATALOG_PLUGIN_ENTRY, error);
  }
  auto entry = reinterpret_cast<floe_catalog_plugin_entry_fn>(symbol);
  const floe_catalog_plugin* api = entry(FLOE_CATALOG_PLUGIN_ABI_VERSION);
  if (api == nullptr) {
    close();
    return InvalidArgument("catalog-impl {}: the plugin does not support plugin ABI version {}",
                           path, FLOE_CATALOG_PLUGIN_ABI_VERSION);
  }
  if (api->abi_version != FLOE_CATALOG_PLUGIN_ABI_VERSION) {
    uint32_t version = api->abi_version;
    close();
    return InvalidArgument("catalog-impl {}: the plugin speaks ABI version {}, floe speaks {}",
                           path, version, FLOE_CATALOG_PLUGIN_ABI_VERSION);
  }
  if (api->struct_size < sizeof(floe_catalog_plugin) || !Complete(*api)) {
    close();
    return InvalidArgument(
        "catalog-impl {}: the plugin's function table is incomplete ({} of {} "
        "bytes, or a function missing)",
        path, api->struct_size, sizeof(floe_catalog_plugin));
  }
  return std::shared_ptr<PluginLibrary>(new PluginLibrary(path, handle, api));
}

PluginLibrary::~PluginLibrary() { dlclose(handle_); }

}  // namespace floe::catalog
