#pragma once

// What every catalog that writes metadata files needs (hadoop, sql, plugins): the default table
// location, the names of new metadata files, and the metadata-log
// bookkeeping of a commit, all as Iceberg Java does them so that other engines find what they
// expect.
//
// The metadata of a new table comes from new_table.h.
//
// Errors: kInvalidArgument for a bad table property (the metadata codec,
// `write.metadata.previous-versions-max`).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/identifier.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/util/error.h"

namespace floe::io {
class FileIO;
}

namespace floe::catalog {

// Table properties these helpers read.
inline constexpr std::string_view kMetadataCompressionProperty = "write.metadata.compression-codec";
inline constexpr std::string_view kMetadataPathProperty = "write.metadata.path";
inline constexpr std::string_view kPreviousVersionsMaxProperty =
    "write.metadata.previous-versions-max";
inline constexpr int kDefaultPreviousVersionsMax = 100;
inline constexpr std::string_view kDeleteAfterCommitProperty =
    "write.metadata.delete-after-commit.enabled";

// `<warehouse>/<level>/.../<table>`: Iceberg's default (HadoopCatalog's
// `<warehouse>/<db>/<table>`).
std::string DefaultTableLocation(std::string_view warehouse, const TableIdentifier& ident);

// The folder for new metadata files: `write.metadata.path` when set, else `<location>/metadata`.
std::string MetadataFolder(const TableMetadata& metadata);

// `write.metadata.compression-codec`: "none" (default) or "gzip", any case.
Result<MetadataCompression> MetadataCodec(const TableMetadata& metadata);

// "v<N>.metadata.json" ("v<N>.gz.metadata.json" for gzip): the file-system (hadoop) name.
Result<std::string> VersionedMetadataFileName(const TableMetadata& metadata, int64_t version);

// `<metadata folder>/<NNNNN>-<uuid>.metadata.json` (".gz.metadata.json" for gzip), the name
// metastore catalogs use. NNNNN is one more than the number in previous_location's name, or 0
// for the first file (or when the previous name has no number).
Result<std::string> NewMetadataLocation(const TableMetadata& metadata,
                                        std::string_view previous_location);

// The number in a metadata file name: 7 for ".../v7.metadata.json" and ".../00007-<uuid>
// .metadata.json" (any compression suffix), nullopt for other names.
std::optional<int64_t> ParseMetadataVersion(std::string_view location);

// The metadata to write when committing `updated` on top of base (stored at base_location): base's
// file appended to the metadata log (with base's last-updated-ms), and the log trimmed to
// `write.metadata.previous-versions-max` entries (at least 1). `removed` receives the files that
// fell out of the log.
Result<TableMetadataPtr> AddPreviousMetadataFile(const TableMetadata& updated,
                                                 const TableMetadata& base,
                                                 std::string_view base_location,
                                                 std::vector<std::string>* removed);

// After a successful commit of `committed`: deletes the files that fell out of the metadata log
// when `write.metadata.delete-after-commit.enabled` is true. Best effort: a file that cannot be
// deleted stays (it is garbage, never data), so this never fails the commit.
void DeleteRemovedMetadataFiles(io::FileIO& io, const TableMetadata& committed,
                                const std::vector<std::string>& removed);

}  // namespace floe::catalog
