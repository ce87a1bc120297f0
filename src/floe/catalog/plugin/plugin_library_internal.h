#pragma once

// A loaded catalog plugin library: the dlopen handle and the checked function table. The library
// stays loaded while any catalog made from it lives.

#include <memory>
#include <string>

#include "floe/catalog/plugin/floe_catalog_plugin.h"
#include "floe/util/error.h"

namespace floe::catalog {

class PluginLibrary {
 public:
  // kInvalidArgument naming path: cannot load, no FLOE_CATALOG_PLUGIN_ENTRY symbol, the entry
  // refuses this host's ABI version, or the table it returns is of another version or too small.
  static Result<std::shared_ptr<PluginLibrary>> Open(const std::string& path);
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const floe_catalog_plugin& api() const { return *api_; }
  const std::string& path() const { return path_; }

 private:
  PluginLibrary(std::string path, void* handle, const floe_catalog_plugin* api)
      : path_(std::move(path)), handle_(handle), api_(api) {}

  std::string path_;
  void* handle_;
  const floe_catalog_plugin* api_;
};

}  // namespace floe::catalog
