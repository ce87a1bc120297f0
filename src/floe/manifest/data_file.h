#pragma once

// The records Iceberg keeps in manifests and manifest lists (spec "Manifests", "Manifest Lists"):
// DataFile describes one data or delete file, ManifestEntry tracks it in a manifest, ManifestFile
// describes one manifest in a manifest list. Plain values; optional fields are std::optional so
// that "absent" and "zero" stay distinct, as inheritance needs. Per-column statistics are kept as
// (field id, value) pairs in the order they were written, which avoids a tree per map and keeps
// reading fast; use Find() to look one up.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/spec/literal.h"

namespace floe::manifest {

enum class FileContent : uint8_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };
enum class ManifestContent : uint8_t { kData = 0, kDeletes = 1 };
enum class EntryStatus : uint8_t { kExisting = 0, kAdded = 1, kDeleted = 2 };

std::string_view FileContentName(FileContent content);

// The identity of a file's partition for grouping and matching: the spec id and each value's
// Appendix D bytes, length-prefixed (nulls and values of unknown transforms included, as
// partition equality needs). Equal keys mean the same spec and equal tuples.
std::string PartitionKey(int32_t spec_id, std::span<const Literal> partition);          // "data", "position_deletes", ...
std::string_view ManifestContentName(ManifestContent content);  // "data", "deletes"
std::string_view EntryStatusName(EntryStatus status);           // "EXISTING", "ADDED", "DELETED"

using CountMap = std::vector<std::pair<int32_t, int64_t>>;      // field id -> count
using BoundMap = std::vector<std::pair<int32_t, std::string>>;  // field id -> Appendix D bytes

// The value for a field id, or nullptr.
template <typename Value>
const Value* Find(const std::vector<std::pair<int32_t, Value>>& map, int32_t field_id) {
  for (const auto& [id, value] : map) {
    if (id == field_id) return &value;
  }
  return nullptr;
}

struct DataFile {
  FileContent content = FileContent::kData;
  std::string file_path;
  std::string file_format;  // "parquet", "avro", "orc", "puffin" as written (lower case)
  // One value per field of the manifest's partition type, in order; null literals for nulls.
  std::vector<Literal> partition;
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  CountMap column_sizes;
  CountMap value_counts;
  CountMap null_value_counts;
  CountMap nan_value_counts;
  BoundMap lower_bounds;  // Literal::FromBinary with the column's type decodes these
  BoundMap upper_bounds;
  std::optional<std::string> key_metadata;
  std::vector<int64_t> split_offsets;
  std::vector<int32_t> equality_ids;
  std::optional<int32_t> sort_order_id;
  std::optional<int64_t> first_row_id;  // v3; inherited when read (see ManifestReader)
  std::optional<std::string> referenced_data_file;
  std::optional<int64_t> content_offset;
  std::optional<int64_t> content_size_in_bytes;
  // Not stored in the entry: the id of the partition spec of the manifest that holds the file.
  int32_t spec_id = 0;

  friend bool operator==(const DataFile&, const DataFile&) = default;
};

struct ManifestEntry {
  EntryStatus status = EntryStatus::kAdded;
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> sequence_number;  // the data sequence number
  std::optional<int64_t> file_sequence_number;
  DataFile data_file;

  friend bool operator==(const ManifestEntry&, const ManifestEntry&) = default;
};

// Summary of one partition field over all files of a manifest.
struct FieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;  // Appendix D bytes of the partition field's type
  std::optional<std::string> upper_bound;

  friend bool operator==(const FieldSummary&, const FieldSummary&) = default;
};

// One entry of a manifest list. Counts are optional because v1 lists may omit them (then they are
// "assumed to be non-zero").
struct ManifestFile {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  int64_t sequence_number = 0;  // 0 when read from v1 lists
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  std::optional<int32_t> added_files_count;
  std::optional<int32_t> existing_files_count;
  std::optional<int32_t> deleted_files_count;
  std::optional<int64_t> added_rows_count;
  std::optional<int64_t> existing_rows_count;
  std::optional<int64_t> deleted_rows_count;
  std::optional<std::vector<FieldSummary>> partitions;
  std::optional<std::string> key_metadata;
  std::optional<int64_t> first_row_id;  // v3

  friend bool operator==(const ManifestFile&, const ManifestFile&) = default;
};

}  // namespace floe::manifest
