#include "floe/catalog/glue/glue_catalog.h"

#include <fmt/format.h>

#include "floe/catalog/glue/glue_catalog_internal.h"
#include "floe/catalog/glue/glue_table_input_internal.h"
#include "floe/io/location.h"
#include "floe/io/resolving_file_io.h"
#include "floe/util/strings.h"

namespace floe::catalog::glue {
namespace {

// Namespace properties stored in a Glue database's own fields rather than in its parameters, as
// Iceberg's GlueCatalog maps them.
constexpr std::string_view kCommentProperty = "comment";
constexpr std::string_view kLocationProperty = "location";

// Iceberg's GlueCatalog rule for names (what Glue itself keeps: it lowercases the rest).
Status ValidateGlueName(std::string_view name, size_t max_length, std::string_view what) {
  bool valid = !name.empty() && name.size() <= max_length;
  for (char c : name) valid &= (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  if (!valid) {
    return InvalidArgument(
        "{} '{}' is not a Glue name: use 1 to {} lowercase letters, digits and '_'", what, name,
        max_length);
  }
  return {};
}

GlueDatabase DatabaseWith(std::string name, const StringMap& properties) {
  GlueDatabase database{std::move(name), "", "", {}};
  for (const auto& [key, value] : properties) {
    if (key == kCommentProperty) {
      database.description = value;
    } else if (key == kLocationProperty) {
      database.location_uri = value;
    } else {
      database.parameters[key] = value;
    }
  }
  return database;
}

StringMap PropertiesOf(const GlueDatabase& database) {
  StringMap properties = database.parameters;
  if (!database.description.empty())
    properties[std::string(kCommentProperty)] = database.description;
  if (!database.location_uri.empty()) {
    properties[std::string(kLocationProperty)] = database.location_uri;
  }
  return properties;
}

}  // namespace

Result<std::string> DatabaseName(const Namespace& ns) {
  if (ns.levels.size() != 1) {
    return InvalidArgument("namespace '{}' has {} levels; a Glue database is one level",
                           ns.ToString(), ns.levels.size());
  }
  FLOE_RETURN_IF_ERROR(ValidateGlueName(ns.levels[0], 252, "namespace"));
  return ns.levels[0];
}

Status ValidateGlueIdentifier(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(DatabaseName(ident.ns));
  return ValidateGlueName(ident.name, 255, "table name");
}

bool IsIcebergTable(const StringMap& parameters) {
  auto it = parameters.find(kTableTypeParameter);
  return it != parameters.end() && AsciiLower(it->second) == AsciiLower(kIcebergTableType);
}

GlueCatalog::GlueCatalog(std::string name, std::string warehouse, bool skip_archive,
                         std::unique_ptr<GlueClient> client, std::shared_ptr<io::FileIO> io)
    : name_(std::move(name)),
      warehouse_(std::move(warehouse)),
      skip_archive_(skip_archive),
      client_(std::move(client)),
      io_(std::move(io)) {}

Result<GlueDatabase> GlueCatalog::Database(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(std::string database, DatabaseName(ns));
  auto found = GetDatabase(*client_, database);
  if (!found && found.error().kind() == ErrorKind::kNotFound) {
    return NotFound("namespace {} does not exist ({})", ns.ToString(), found.error().message());
  }
  return found;
}

Status GlueCatalog::CreateNamespace(const Namespace& ns, const StringMap& properties) {
  FLOE_ASSIGN_OR_RETURN(std::string database, DatabaseName(ns));
  Status created = CreateDatabase(*client_, DatabaseWith(database, properties));
  if (!created && created.error().kind() == ErrorKind::kAlreadyExists) {
    return AlreadyExists("namespace {} already exists ({})", ns.ToString(),
                         created.error().message());
  }
  return created;
}

Result<std::vector<Namespace>> GlueCatalog::ListNamespaces(const Namespace& parent) {
  // Glue databases do not nest: a database has no children.
  if (!parent.empty()) {
    FLOE_RETURN_IF_ERROR(Database(parent));
    return std::vector<Namespace>{};
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<GlueDatabase> databases, GetDatabases(*client_));
  std::vector<Namespace> out;
  for (GlueDatabase& database : databases) out.push_back(Namespace{{std::move(database.name)}});
  return out;
}

Result<bool> GlueCatalog::NamespaceExists(const Namespace& ns) {
  auto database = Database(ns);
  if (database) return true;
  if (database.error().kind() == ErrorKind::kNotFound) return false;
  return std::unexpected(std::move(database.error()));
}

Result<StringMap> GlueCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(GlueDatabase database, Database(ns));
  return PropertiesOf(database);
}

Status GlueCatalog::UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                              const std::vector<std::string>& removals) {
  for (const std::string& key : removals) {
    if (updates.contains(key)) {
      return InvalidArgument("namespace {}: property {} is both updated and removed", ns.ToString(),
                             key);
    }
  }
  FLOE_ASSIGN_OR_RETURN(GlueDatabase database, Database(ns));
  StringMap properties = PropertiesOf(database);
  for (const std::string& key : removals) properties.erase(key);
  for (const auto& [key, value] : updates) properties[key] = value;
  return UpdateDatabase(*client_, DatabaseWith(database.name, properties));
}

Status GlueCatalog::DropNamespace(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(GlueDatabase database, Database(ns));
  FLOE_ASSIGN_OR_RETURN(std::vector<GlueTable> tables, GetTables(*client_, database.name));
  if (!tables.empty()) {
    return InvalidArgument("namespace {} still holds tables ({} of them, {} first)", ns.ToString(),
                           tables.size(), tables.front().name);
  }
  return DeleteDatabase(*client_, database.name);
}

Result<std::string> GlueCatalog::DefaultLocation(const GlueDatabase& database,
                                                 const TableIdentifier& ident) {
  if (!database.location_uri.empty()) {
    return io::JoinLocation(io::NormalizeLocation(database.location_uri), ident.name);
  }
  if (warehouse_.empty()) {
    return InvalidArgument(
        "table {} has no location, its Glue database no LocationUri and catalog {} no `warehouse`",
        ident.ToString(), name_);
  }
  return io::JoinLocation(warehouse_, fmt::format("{}.db/{}", database.name, ident.name));
}

}  // namespace floe::catalog::glue

namespace floe::catalog {

Result<std::shared_ptr<Catalog>> CreateGlueCatalog(const std::string& name,
                                                   const StringMap& properties) {
  FLOE_ASSIGN_OR_RETURN(glue::GlueClientOptions options, glue::GlueClientOptionsFrom(properties));
  std::string warehouse;
  if (auto it = properties.find("warehouse"); it != properties.end() && !it->second.empty()) {
    warehouse = io::NormalizeLocation(it->second);
  }
  bool skip_archive = true;
  if (auto it = properties.find("glue.skip-archive"); it != properties.end()) {
    std::string value = AsciiLower(it->second);
    if (value != "true" && value != "false") {
      return InvalidArgument("property glue.skip-archive: '{}' is not true or false", it->second);
    }
    skip_archive = value == "true";
  }
  return std::shared_ptr<Catalog>(std::make_shared<glue::GlueCatalog>(
      name, std::move(warehouse), skip_archive,
      std::make_unique<glue::GlueClient>(std::move(options)), io::MakeFileIO(properties)));
}

}  // namespace floe::catalog
