#include "floe/spec/table_metadata_io.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <set>

#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/spec/table_metadata_json.h"
#include "floe/util/strings.h"

namespace floe {
namespace {

constexpr std::string_view kMetadataSuffix = ".metadata.json";
constexpr std::string_view kGzipSuffix = ".gz";
constexpr std::string_view kVersionHintFile = "version-hint.text";

bool IsGzip(std::string_view b) {
  return b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f &&
         static_cast<unsigned char>(b[1]) == 0x8b;
}

bool IsZstd(std::string_view b) {
  return b.size() >= 4 && static_cast<unsigned char>(b[0]) == 0x28 &&
         static_cast<unsigned char>(b[1]) == 0xb5 && static_cast<unsigned char>(b[2]) == 0x2f &&
         static_cast<unsigned char>(b[3]) == 0xfd;
}

Result<std::string> Gunzip(std::string_view bytes) {
  z_stream z{};
  // 16 + MAX_WBITS: expect a gzip header and trailer (CRC and length are checked).
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return InternalError("zlib inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buffer[64 * 1024];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof(buffer);
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      std::string message = z.msg != nullptr ? z.msg : "truncated or invalid data";
      inflateEnd(&z);
      return CorruptData("gzip: {} at compressed offset {}", message, z.total_in);
    }
    out.append(buffer, sizeof(buffer) - z.avail_out);
    if (static_cast<int64_t>(out.size()) > kMaxMetadataJsonBytes) {
      inflateEnd(&z);
      return ResourceExhausted("gzip: metadata inflates beyond {} bytes", kMaxMetadataJsonBytes);
    }
    if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
      inflateEnd(&z);
      return CorruptData("gzip: data ends before the end of the stream");
    }
  }
  inflateEnd(&z);
  return out;
}

Result<std::string> Gzip(std::string_view text) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return InternalError("zlib deflateInit2 failed");
  }
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return InternalError("zlib deflate failed ({})", rc);
  out.resize(z.total_out);
  return out;
}

Result<std::string> Unzstd(std::string_view bytes) {
  ZSTD_DStream* stream = ZSTD_createDStream();
  if (stream == nullptr) return InternalError("zstd: cannot create a stream");
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  std::string out;
  char buffer[64 * 1024];
  size_t rc = 1;
  while (rc != 0) {
    ZSTD_outBuffer o{buffer, sizeof(buffer), 0};
    rc = ZSTD_decompressStream(stream, &o, &in);
    if (ZSTD_isError(rc)) {
      std::string message = ZSTD_getErrorName(rc);
      ZSTD_freeDStream(stream);
      return CorruptData("zstd: {} at compressed offset {}", message, in.pos);
    }
    out.append(buffer, o.pos);
    if (static_cast<int64_t>(out.size()) > kMaxMetadataJsonBytes) {
      ZSTD_freeDStream(stream);
      return ResourceExhausted("zstd: metadata inflates beyond {} bytes", kMaxMetadataJsonBytes);
    }
    if (rc != 0 && in.pos == in.size && o.pos < o.size) {
      ZSTD_freeDStream(stream);
      return CorruptData("zstd: data ends before the end of the frame");
    }
  }
  ZSTD_freeDStream(stream);
  return out;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::optional<int64_t> ParseNumber(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

// The metadata file naming schemes: "v<N>.metadata.json" (file-system tables, where N is the
// version) and "<NNNNN>-<uuid>.metadata.json" (catalog tables, where N counts commits); both with
// the optional GZIP suffixes. nullopt for anything else (crc sidecars, "vfinal", "v3.1").
struct MetadataName {
  bool versioned;  // v<N>
  int64_t number;
};

std::optional<MetadataName> ParseMetadataName(std::string_view name) {
  if (name.empty() || name.front() == '.') return std::nullopt;
  std::string_view stem = name;
  if (EndsWith(stem, kGzipSuffix)) stem.remove_suffix(kGzipSuffix.size());
  if (!EndsWith(stem, kMetadataSuffix)) return std::nullopt;
  stem.remove_suffix(kMetadataSuffix.size());
  if (EndsWith(stem, kGzipSuffix)) stem.remove_suffix(kGzipSuffix.size());
  if (stem.size() > 1 && stem.front() == 'v') {
    if (auto n = ParseNumber(stem.substr(1))) return MetadataName{true, *n};
    return std::nullopt;
  }
  size_t dash = stem.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  if (auto n = ParseNumber(stem.substr(0, dash))) return MetadataName{false, *n};
  return std::nullopt;
}

// The file of version n among names, in any of its compressed spellings.
std::optional<std::string> FindVersion(const std::set<std::string, std::less<>>& names, int64_t n) {
  for (std::string_view suffix : {".metadata.json", ".gz.metadata.json", ".metadata.json.gz"}) {
    std::string name = fmt::format("v{}{}", n, suffix);
    if (names.contains(name)) return name;
  }
  return std::nullopt;
}

// The file the version hint names, if it is there.
std::optional<std::string> ResolveHint(const std::set<std::string, std::less<>>& names,
                                       std::string_view hint) {
  if (auto n = ParseNumber(hint)) {
    auto found = FindVersion(names, *n);
    if (!found) return std::nullopt;
    // A commit renames vN+1 into place before it rewrites the hint: follow newer versions.
    for (int64_t next = *n + 1;; ++next) {
      auto newer = FindVersion(names, next);
      if (!newer) break;
      found = std::move(newer);
    }
    return found;
  }
  for (std::string_view suffix : {".metadata.json", ".gz.metadata.json", ".metadata.json.gz", ""}) {
    std::string name = fmt::format("{}{}", hint, suffix);
    bool metadata_name = EndsWith(name, ".metadata.json") || EndsWith(name, ".metadata.json.gz");
    if (metadata_name && names.contains(name)) return name;
  }
  return std::nullopt;
}

}  // namespace

MetadataCompression MetadataCompressionForName(std::string_view location) {
  if (EndsWith(location, ".gz.metadata.json") || EndsWith(location, ".metadata.json.gz")) {
    return MetadataCompression::kGzip;
  }
  return MetadataCompression::kNone;
}

Result<std::string> DecompressMetadata(std::string_view bytes) {
  if (static_cast<int64_t>(bytes.size()) > kMaxMetadataJsonBytes) {
    return ResourceExhausted("metadata file of {} bytes is above the limit of {}", bytes.size(),
                             kMaxMetadataJsonBytes);
  }
  if (IsGzip(bytes)) return Gunzip(bytes);
  if (IsZstd(bytes)) return Unzstd(bytes);
  return std::string(bytes);
}

Result<std::string> CompressMetadata(std::string_view json, MetadataCompression compression) {
  if (compression == MetadataCompression::kGzip) return Gzip(json);
  return std::string(json);
}

Result<TableMetadataPtr> ReadTableMetadata(io::FileIO& io, std::string_view location) {
  auto read = [&]() -> Result<TableMetadataPtr> {
    FLOE_ASSIGN_OR_RETURN(std::string bytes, io.ReadFile(location));
    FLOE_ASSIGN_OR_RETURN(std::string text, DecompressMetadata(bytes));
    return TableMetadataFromJsonString(text);
  };
  auto result = read();
  if (!result) return std::unexpected(result.error().AddContext(location));
  return result;
}

Status WriteTableMetadata(io::FileIO& io, std::string_view location, const TableMetadata& metadata,
                          bool overwrite) {
  auto write = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(std::string bytes,
                          CompressMetadata(TableMetadataToJsonString(metadata),
                                           MetadataCompressionForName(location)));
    return io.WriteFileAtomically(location, bytes, overwrite);
  };
  auto status = write();
  if (!status) return std::unexpected(status.error().AddContext(location));
  return status;
}

Result<std::string> FindCurrentMetadataLocation(io::FileIO& io, std::string_view table_location) {
  std::string folder = io::FileName(table_location) == "metadata"
                           ? std::string(table_location)
                           : io::JoinLocation(table_location, "metadata");
  auto listing = io.List(folder);
  if (!listing) return std::unexpected(listing.error().AddContext("finding the current metadata"));
  std::set<std::string, std::less<>> names;
  for (const auto& entry : *listing) {
    if (!entry.is_dir) names.insert(entry.name);
  }

  if (names.contains(kVersionHintFile)) {
    auto hint = io.ReadFile(io::JoinLocation(folder, kVersionHintFile));
    if (!hint) return std::unexpected(hint.error());
    if (auto name = ResolveHint(names, TrimWhitespace(*hint)))
      return io::JoinLocation(folder, *name);
  }

  std::optional<std::pair<MetadataName, std::string>> best;
  for (const auto& name : names) {
    auto parsed = ParseMetadataName(name);
    if (!parsed) continue;
    // File-system versions win over commit counters; within a scheme the highest number wins.
    auto key = [](const MetadataName& m) { return std::pair(m.versioned, m.number); };
    if (!best || key(*parsed) > key(best->first)) best.emplace(*parsed, name);
  }
  if (best) return io::JoinLocation(folder, best->second);
  // No numbered name: a single metadata file (e.g. "vfinal.metadata.json") can only be current.
  std::vector<std::string_view> others;
  for (const auto& name : names) {
    if (!name.starts_with(".") &&
        (EndsWith(name, kMetadataSuffix) || EndsWith(name, ".metadata.json.gz"))) {
      others.push_back(name);
    }
  }
  if (others.size() == 1) return io::JoinLocation(folder, others.front());
  if (others.empty()) return NotFound("no table metadata file (*.metadata.json) in {}", folder);
  return NotFound("cannot tell which of {} unnumbered metadata files in {} is current",
                  others.size(), folder);
}

}  // namespace floe
