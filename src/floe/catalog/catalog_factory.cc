// CreateCatalog (catalog.h): the Flink connector's catalog properties to a catalog. Besides what
// catalog.h says: a `property-version` other than 1 is kInvalidArgument, and a relative
// `warehouse` is made absolute against the working directory.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "floe/catalog/caching_catalog.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/glue/glue_catalog.h"
#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/catalog/plugin/plugin_catalog.h"
#include "floe/catalog/rest/rest_catalog.h"
#include "floe/catalog/sql/sql_catalog.h"
#include "floe/io/location.h"
#include "floe/io/mapped_file_io.h"
#include "floe/io/resolving_file_io.h"

namespace floe::catalog {
namespace {

constexpr std::string_view kCatalogType = "catalog-type";
constexpr std::string_view kCatalogImpl = "catalog-impl";
constexpr std::string_view kPropertyVersion = "property-version";
constexpr std::string_view kWarehouse = "warehouse";

std::string Lowercase(std::string text) {
  std::ranges::transform(text, text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Properties the factory consumes and a plugin therefore does not see.
StringMap PluginProperties(const StringMap& properties) {
  StringMap out = properties;
  for (std::string_view key : {kCatalogImpl, kCacheEnabledProperty, kCacheExpirationProperty}) {
    if (auto it = out.find(key); it != out.end()) out.erase(it);
  }
  return out;
}

// For a local warehouse: every location floe serves (a table may live elsewhere than the
// warehouse, on S3 too), where tables written by an older floe with a relative warehouse hold
// paths relative to the folder it ran in: those are read under the warehouse, with a warning
// (io::ResolveRelativeToWarehouse). Other warehouses keep the catalog's default FileIO (nullptr).
std::shared_ptr<io::FileIO> LocalWarehouseFileIO(const std::string& name,
                                                 const StringMap& properties) {
  auto it = properties.find(kWarehouse);
  if (it == properties.end() || it->second.empty() || it->second.front() != '/') return nullptr;
  return io::ResolveRelativeToWarehouse(
      io::MakeFileIO(properties), it->second,
      [name](std::string_view relative, std::string_view resolved) {
        fmt::print(stderr,
                   "[WARNING] catalog {}: '{}' is a relative location (written by an older floe); "
                   "it is taken as '{}', under the warehouse.\n",
                   name, relative, resolved);
      });
}

Result<std::shared_ptr<Catalog>> MakeUncached(const std::string& name,
                                              const StringMap& properties) {
  auto type_it = properties.find(kCatalogType);
  auto impl_it = properties.find(kCatalogImpl);
  if (type_it != properties.end() && impl_it != properties.end()) {
    return InvalidArgument(
        "catalog {}: set either catalog-type or catalog-impl, not both (catalog-type={}, "
        "catalog-impl={})",
        name, type_it->second, impl_it->second);
  }
  if (impl_it != properties.end()) {
    return LoadPluginCatalog(impl_it->second, name, PluginProperties(properties));
  }
  // The Flink connector's default type when neither is set.
  std::string type = Lowercase(type_it != properties.end() ? type_it->second : "hive");
  if (type == "hadoop") {
    FLOE_ASSIGN_OR_RETURN(
        auto hadoop, HadoopCatalog::Make(name, properties, LocalWarehouseFileIO(name, properties)));
    return std::shared_ptr<Catalog>(std::move(hadoop));
  }
  if (type == "sql" || type == "jdbc") {
    return CreateSqlCatalog(name, properties, LocalWarehouseFileIO(name, properties));
  }
  if (type == "rest") return CreateRestCatalog(name, properties);
  if (type == "glue") return CreateGlueCatalog(name, properties);
  if (type == "hive") {
    return Unsupported("catalog {}: catalog-type {} is not yet supported{}", name, type,
                       type_it == properties.end()
                           ? " (it is the default when neither catalog-type nor catalog-impl is "
                             "set)"
                           : "");
  }
  return InvalidArgument(
      "catalog {}: unknown catalog-type '{}' (valid: hadoop, sql, hive, rest, glue; or set "
      "catalog-impl to the path of a catalog plugin)",
      name, type_it->second);
}

// The properties as the catalog sees them: a relative warehouse made absolute once, here, so that
// every location the catalog derives from it (table folders, its rows) is absolute. A REST
// catalog's warehouse is the server's to interpret (a name or a location), so it stays as given.
Result<StringMap> CheckedProperties(const std::string& name, const StringMap& properties) {
  StringMap out = properties;
  if (auto it = out.find(kPropertyVersion); it != out.end() && it->second != "1") {
    return InvalidArgument(
        "catalog {}: property-version '{}' is not supported (the only property version is 1)", name,
        it->second);
  }
  auto type = out.find(kCatalogType);
  bool rest = type != out.end() && Lowercase(type->second) == "rest";
  if (auto it = out.find(kWarehouse); it != out.end() && !rest)
    it->second = io::AbsoluteLocation(it->second);
  return out;
}

}  // namespace

Result<std::shared_ptr<Catalog>> CreateCatalog(const std::string& name,
                                               const StringMap& properties) {
  FLOE_ASSIGN_OR_RETURN(StringMap checked, CheckedProperties(name, properties));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Catalog> catalog, MakeUncached(name, checked));
  return CachingCatalog::Wrap(std::move(catalog), checked);
}

}  // namespace floe::catalog
