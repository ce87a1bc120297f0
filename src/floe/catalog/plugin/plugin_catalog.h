#pragma once

// A Catalog over a plugin shared library (`catalog-impl`) speaking the C ABI of
// floe_catalog_plugin.h. The plugin stores metadata locations; this adapter does the Iceberg
// work around them: it writes new metadata files (`<NNNNN>-<uuid>.metadata.json` in the table's
// metadata folder), checks requirements and applies updates before asking the plugin to swap the
// location, reads metadata files on load, and deletes a table's files on purge.
//
// Errors: kInvalidArgument naming the path when the library cannot be loaded, lacks the entry
// symbol or speaks another ABI version; the plugin's own errors keep their kind and message
// (commit conflicts stay retryable).

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

// Loads the library at path (dlopen) and creates the catalog with the given properties. io
// defaults to the local filesystem.
Result<std::shared_ptr<Catalog>> LoadPluginCatalog(const std::string& path, const std::string& name,
                                                   const StringMap& properties,
                                                   std::shared_ptr<io::FileIO> io = nullptr);

}  // namespace floe::catalog
