// IcebergConnectorLoader (table_statements.h): the Flink connector's 'connector' = 'iceberg' table.

#include <algorithm>
#include <array>

#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/util/strings.h"

namespace floe::sql {
namespace {

constexpr std::string_view kCatalogName = "catalog-name";
constexpr std::string_view kCatalogDatabase = "catalog-database";
constexpr std::string_view kCatalogTable = "catalog-table";

// Options that say where the table is rather than what it is: they configure the catalog and are
// not copied into the properties of a table the connector creates.
constexpr std::array<std::string_view, 15> kCatalogOptions = {"connector",
                                                              "type",
                                                              "catalog-name",
                                                              "catalog-type",
                                                              "catalog-impl",
                                                              "catalog-database",
                                                              "catalog-table",
                                                              "warehouse",
                                                              "uri",
                                                              "clients",
                                                              "property-version",
                                                              "cache-enabled",
                                                              "cache.expiration-interval-ms",
                                                              "hive-conf-dir",
                                                              "hadoop-conf-dir"};

Status CreateMissing(catalog::Catalog& catalog, const catalog::TableIdentifier& ident,
                     const ConnectorTable& table, const StringMap& options) {
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, catalog.NamespaceExists(ident.ns));
  if (!ns_exists) {
    auto created = catalog.CreateNamespace(ident.ns, {});
    if (!created && created.error().kind() != ErrorKind::kAlreadyExists) return created;
  }
  FLOE_ASSIGN_OR_RETURN(bool table_exists, catalog.TableExists(ident));
  if (table_exists) return {};
  catalog::CreateTableRequest request;
  FLOE_ASSIGN_OR_RETURN(request.schema, ToIcebergSchema(table.columns, table.primary_key));
  for (const auto& [key, value] : options) {
    if (key == "location") {
      request.location = value;
    } else if (!IsIcebergCatalogOption(key)) {
      request.properties[key] = value;
    }
  }
  if (table.comment.has_value()) request.properties["comment"] = *table.comment;
  auto created = catalog.CreateTable(ident, request);
  // Another job may have created it in the meantime: theirs is as good as ours.
  if (!created && created.error().kind() != ErrorKind::kAlreadyExists) {
    return std::unexpected(std::move(created).error());
  }
  return {};
}

}  // namespace

bool IsIcebergCatalogOption(std::string_view key) {
  return std::ranges::find(kCatalogOptions, key) != kCatalogOptions.end();
}

Result<ConnectorCatalog> ParseConnectorCatalog(std::string_view what, const StringMap& options,
                                               const std::function<bool(std::string_view)>& other) {
  ConnectorCatalog out;
  auto name = options.find(kCatalogName);
  if (name == options.end() || name->second.empty()) {
    return InvalidArgument(
        "{}: 'connector' = 'iceberg' needs 'catalog-name' (and the catalog's options: "
        "'catalog-type', 'warehouse', 'uri'...)",
        what);
  }
  out.name = name->second;
  auto database = options.find(kCatalogDatabase);
  out.database = database != options.end() ? database->second : std::string(kDefaultDatabase);
  for (const auto& [key, value] : options) {
    if (key == "connector" || key == kCatalogName || key == kCatalogDatabase) continue;
    if (other && other(key)) continue;
    out.properties[key] = value;
  }
  return out;
}

Result<stream::TableLoader> IcebergConnectorLoader(std::string_view name,
                                                   const ConnectorTable& table) {
  FLOE_ASSIGN_OR_RETURN(StringMap options, ToStringMap(table.options, "connector table"));
  if (auto dynamic = options.find("use-dynamic-sink");
      dynamic != options.end() && EqualsIgnoreCase(dynamic->second, "true")) {
    return InvalidArgument(
        "connector table '{}' is a dynamic sink ('use-dynamic-sink'): INSERT writes it, it "
        "cannot be read",
        name);
  }
  FLOE_ASSIGN_OR_RETURN(
      ConnectorCatalog where,
      ParseConnectorCatalog(fmt::format("connector table '{}'", name), options,
                            [](std::string_view key) { return key == kCatalogTable; }));
  std::string_view own_name = name.substr(name.rfind('.') + 1);
  catalog::TableIdentifier ident;
  FLOE_ASSIGN_OR_RETURN(ident.ns, catalog::Namespace::Parse(where.database));
  auto table_name = options.find(kCatalogTable);
  ident.name = table_name != options.end() ? table_name->second : std::string(own_name);
  FLOE_RETURN_IF_ERROR(catalog::Validate(ident));
  auto loader = stream::TableLoader::FromCatalog(where.name, std::move(where.properties), ident);
  auto catalog = loader.LoadCatalog();
  if (!catalog) {
    return std::unexpected(
        std::move(catalog.error()).AddContext(fmt::format("connector table '{}'", name)));
  }
  auto created = CreateMissing(**catalog, ident, table, options);
  if (!created) {
    return std::unexpected(std::move(created.error())
                               .AddContext(fmt::format("connector table '{}': {}.{}", name,
                                                       where.name, ident.ToString())));
  }
  return loader;
}

}  // namespace floe::sql
