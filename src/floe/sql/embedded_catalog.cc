#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "floe/io/location.h"
#include "floe/sql/embedded_catalog.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;

// SQLite's companions of a database file, moved with it.
constexpr std::string_view kSqliteSuffixes[] = {"", "-wal", "-shm", "-journal"};

Status MoveOldCatalog(const fs::path& old_file, const fs::path& new_file) {
  for (std::string_view suffix : kSqliteSuffixes) {
    fs::path from = old_file.string() + std::string(suffix);
    std::error_code error;
    if (!fs::exists(from, error)) continue;
    fs::rename(from, new_file.string() + std::string(suffix), error);
    if (error) {
      return IOError("moving the catalog file '{}' into the warehouse: {}", from.string(),
                     error.message());
    }
  }
  return {};
}

}  // namespace

Result<EmbeddedCatalogPlace> PrepareEmbeddedCatalog(const std::string& warehouse) {
  auto local = io::ToLocalPath(warehouse);
  if (!local.has_value()) {
    return InvalidArgument("the embedded catalog's warehouse '{}' must be a local folder",
                           warehouse);
  }
  const fs::path folder = io::AbsoluteLocation(*local);
  if (!folder.has_filename()) {
    return InvalidArgument("the embedded catalog's warehouse '{}' is a root folder", warehouse);
  }
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) {
    return IOError("making the warehouse folder '{}': {}", folder.string(), error.message());
  }
  EmbeddedCatalogPlace place;
  const fs::path file = folder / kEmbeddedCatalogFile;
  const fs::path old_file = folder.string() + ".catalog.db";
  if (!fs::exists(file, error) && fs::exists(old_file, error)) {
    FLOE_RETURN_IF_ERROR(MoveOldCatalog(old_file, file));
    place.notes.push_back(
        fmt::format("[INFO] Moved the catalog file '{}' into its warehouse: it is now '{}'.",
                    old_file.string(), file.string()));
  } else if (fs::exists(old_file, error)) {
    place.notes.push_back(fmt::format(
        "[WARNING] '{}' is an older catalog file of this warehouse; the catalog in use is '{}'.",
        old_file.string(), file.string()));
  }
  place.properties = {{"type", "iceberg"},
                      {"catalog-type", "sql"},
                      {"warehouse", folder.string()},
                      {"uri", "jdbc:sqlite:" + file.string()}};
  return place;
}

}  // namespace floe::sql
