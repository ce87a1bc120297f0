#include "floe/table/scan/location_mapping.h"

#include <utility>

#include "floe/io/mapped_file_io.h"
#include "floe/spec/table_metadata.h"

namespace floe::table {
namespace {

// "./t/" and "t" name the same place.
std::string_view TrimSlashes(std::string_view s) {
  while (s.starts_with("./")) s.remove_prefix(2);
  while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
  return s;
}

}  // namespace

LocationMapping LocationMapping::ForTable(const TableMetadata& metadata,
                                          std::string_view table_dir) {
  return LocationMapping{std::string(TrimSlashes(metadata.location())),
                         std::string(TrimSlashes(table_dir))};
}

std::string LocationMapping::Apply(std::string_view location) const {
  std::string_view prefix = TrimSlashes(from);
  while (location.starts_with("./")) location.remove_prefix(2);
  if (prefix.empty() || !location.starts_with(prefix)) return std::string(location);
  std::string_view rest = location.substr(prefix.size());
  if (!rest.empty() && rest.front() != '/' && prefix.back() != '/') return std::string(location);
  std::string out(TrimSlashes(to));
  out.append(rest);
  return out;
}

std::shared_ptr<io::FileIO> MapLocations(std::shared_ptr<io::FileIO> base,
                                         LocationMapping mapping) {
  if (mapping.empty()) return base;
  return io::MapFileLocations(std::move(base),
                              [mapping = std::move(mapping)](std::string_view location) {
                                return mapping.Apply(location);
                              });
}

}  // namespace floe::table
