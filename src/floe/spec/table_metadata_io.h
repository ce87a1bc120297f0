#pragma once

// Table metadata files on storage: reading and writing `*.metadata.json` through a FileIO, with
// GZIP compression (`.gz.metadata.json`, `.metadata.json.gz`; spec Appendix F), and finding a
// table folder's current metadata file the way file-system (Hadoop) tables name them.
//
// Reading recognizes compression by its magic bytes rather than the name, so a mis-named file
// still reads; zstd-compressed files (written by some engines) read too. Decompressed sizes are
// capped (kResourceExhausted). Errors carry the file's location.

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe {
namespace io {
class FileIO;
}

enum class MetadataCompression : unsigned char { kNone, kGzip };

// GZIP when the name ends in ".gz.metadata.json" or ".metadata.json.gz".
MetadataCompression MetadataCompressionForName(std::string_view location);

// The largest metadata JSON floe will inflate a compressed file to.
inline constexpr int64_t kMaxMetadataJsonBytes = int64_t{1} << 30;

// File bytes (plain, gzip or zstd) to the JSON text.
Result<std::string> DecompressMetadata(std::string_view bytes);
// JSON text to file bytes.
Result<std::string> CompressMetadata(std::string_view json, MetadataCompression compression);

Result<TableMetadataPtr> ReadTableMetadata(io::FileIO& io, std::string_view location);

// Writes metadata atomically (all or nothing) to location, compressed as its name says; fails with
// kAlreadyExists when a file is there and !overwrite.
Status WriteTableMetadata(io::FileIO& io, std::string_view location, const TableMetadata& metadata,
                          bool overwrite = false);

// The current metadata file of the table at table_location (its folder, or its metadata/ folder):
// metadata/version-hint.text names it (a version N for vN.metadata.json, any compressed
// variant, or a newer vN+1... when a commit did not update the hint yet; or a file name with or
// without ".metadata.json"); without a usable hint, the highest vN.metadata.json, else the highest
// NNNNN-<uuid>.metadata.json, else the folder's only metadata file. kNotFound when there is
// none (or several that are not numbered).
Result<std::string> FindCurrentMetadataLocation(io::FileIO& io, std::string_view table_location);

}  // namespace floe
