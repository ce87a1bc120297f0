#include "floe/catalog/metadata_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/util/clock.h"
#include "floe/util/strings.h"
#include "floe/util/uuid.h"

namespace floe::catalog {
namespace {

Result<int64_t> ParseInt(std::string_view key, std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgument("table property {}: '{}' is not an integer", key, text);
  }
  return value;
}

std::string_view CodecExtension(MetadataCompression codec) {
  return codec == MetadataCompression::kGzip ? ".gz.metadata.json" : ".metadata.json";
}

}  // namespace

std::string DefaultTableLocation(std::string_view warehouse, const TableIdentifier& ident) {
  std::string location = io::NormalizeLocation(warehouse);
  for (const std::string& level : ident.ns.levels) location = io::JoinLocation(location, level);
  return io::JoinLocation(location, ident.name);
}

std::string MetadataFolder(const TableMetadata& metadata) {
  std::string_view path = metadata.property(kMetadataPathProperty);
  if (!path.empty()) return io::NormalizeLocation(path);
  return io::JoinLocation(metadata.location(), "metadata");
}

Result<MetadataCompression> MetadataCodec(const TableMetadata& metadata) {
  std::string codec = AsciiLower(metadata.property(kMetadataCompressionProperty, "none"));
  if (codec == "none") return MetadataCompression::kNone;
  if (codec == "gzip") return MetadataCompression::kGzip;
  return InvalidArgument("table property {}: unknown codec '{}' (expected none or gzip)",
                         kMetadataCompressionProperty, codec);
}

Result<std::string> VersionedMetadataFileName(const TableMetadata& metadata, int64_t version) {
  FLOE_ASSIGN_OR_RETURN(MetadataCompression codec, MetadataCodec(metadata));
  return fmt::format("v{}{}", version, CodecExtension(codec));
}

Result<std::string> NewMetadataLocation(const TableMetadata& metadata,
                                        std::string_view previous_location) {
  FLOE_ASSIGN_OR_RETURN(MetadataCompression codec, MetadataCodec(metadata));
  int64_t version = 0;
  if (!previous_location.empty()) {
    if (auto previous = ParseMetadataVersion(previous_location)) version = *previous + 1;
  }
  return io::JoinLocation(MetadataFolder(metadata),
                          fmt::format("{:05d}-{}{}", version, RandomUuid(), CodecExtension(codec)));
}

std::optional<int64_t> ParseMetadataVersion(std::string_view location) {
  std::string name = io::FileName(location);
  std::string_view stem = name;
  // "v<N>.metadata.json" or "<N>-<uuid>.metadata.json": what follows the digits tells which.
  bool versioned = stem.starts_with('v');
  if (versioned) stem.remove_prefix(1);
  size_t end = 0;
  while (end < stem.size() && std::isdigit(static_cast<unsigned char>(stem[end]))) ++end;
  if (end == 0 || end > 18) return std::nullopt;
  if (!stem.substr(end).starts_with(versioned ? '.' : '-')) return std::nullopt;
  if (!name.ends_with(".metadata.json") && !name.ends_with(".metadata.json.gz")) {
    return std::nullopt;
  }
  int64_t value = 0;
  std::from_chars(stem.data(), stem.data() + end, value);
  return value;
}

Result<TableMetadataPtr> AddPreviousMetadataFile(const TableMetadata& updated,
                                                 const TableMetadata& base,
                                                 std::string_view base_location,
                                                 std::vector<std::string>* removed) {
  int64_t max_entries = kDefaultPreviousVersionsMax;
  std::string_view max_text = updated.property(kPreviousVersionsMaxProperty);
  if (!max_text.empty()) {
    FLOE_ASSIGN_OR_RETURN(max_entries, ParseInt(kPreviousVersionsMaxProperty, max_text));
  }
  max_entries = std::max<int64_t>(1, max_entries);

  std::vector<MetadataLogEntry> log = updated.metadata_log();
  log.push_back({base.last_updated_ms(), std::string(base_location)});
  if (static_cast<int64_t>(log.size()) > max_entries) {
    auto drop = static_cast<std::ptrdiff_t>(log.size() - max_entries);
    if (removed != nullptr) {
      for (auto it = log.begin(); it != log.begin() + drop; ++it) {
        removed->push_back(it->metadata_file);
      }
    }
    log.erase(log.begin(), log.begin() + drop);
  }
  TableMetadataBuilder builder(updated);
  builder.SetMetadataLog(std::move(log));
  return builder.Build(TableMetadataBuilder::Mode::kExisting);
}

void DeleteRemovedMetadataFiles(io::FileIO& io, const TableMetadata& committed,
                                const std::vector<std::string>& removed) {
  if (AsciiLower(committed.property(kDeleteAfterCommitProperty, "false")) != "true") return;
  for (const std::string& file : removed) (void)io.Delete(file);
}

}  // namespace floe::catalog
