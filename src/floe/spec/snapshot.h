#pragma once

// Snapshots and the records that table metadata keeps about them (spec "Snapshots", "Snapshot
// References", "Table Statistics", "Partition Statistics", "Encryption Keys"): plain immutable
// values. Their JSON forms live in snapshot_json.h; the rules that tie them to a table (ids unique,
// refs pointing at existing snapshots, sequence numbers in range) are checked by TableMetadata's
// builder, because only the whole table can check them.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

// Table properties, snapshot summaries and other string maps, sorted by key.
using StringMap = std::map<std::string, std::string, std::less<>>;

// The spec's snapshot `operation` values.
inline constexpr std::string_view kOperationAppend = "append";
inline constexpr std::string_view kOperationReplace = "replace";
inline constexpr std::string_view kOperationOverwrite = "overwrite";
inline constexpr std::string_view kOperationDelete = "delete";

// The state of a table at one commit. A v1 snapshot may list its manifests inline (`manifests`)
// instead of pointing at a manifest list; v2 and later always use a manifest list.
struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;  // 0 in v1 tables
  int64_t timestamp_ms = 0;
  std::string manifest_list;           // empty when `manifests` is used
  std::vector<std::string> manifests;  // v1 only
  StringMap summary;                   // holds `operation`, and optional metrics (spec Appendix F)
  std::optional<int32_t> schema_id;
  std::optional<int64_t> first_row_id;  // v3 row lineage; absent for snapshots from before v3
  std::optional<int64_t> added_rows;    // v3 row lineage
  std::optional<std::string> key_id;    // v3 encryption key of the manifest list key metadata

  // The summary's `operation`, or "" when the summary has none (possible in v1).
  std::string_view operation() const;

  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};
using SnapshotPtr = std::shared_ptr<const Snapshot>;

enum class SnapshotRefType : unsigned char { kBranch, kTag };
std::string_view SnapshotRefTypeName(SnapshotRefType type);  // "branch" / "tag"

// A named branch or tag and its retention settings. Retention values are positive when set; the
// snapshot-count and snapshot-age settings apply to branches only.
struct SnapshotRef {
  static constexpr std::string_view kMainBranch = "main";

  int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  std::optional<int32_t> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  std::optional<int64_t> max_ref_age_ms;

  bool is_branch() const { return type == SnapshotRefType::kBranch; }
  friend bool operator==(const SnapshotRef&, const SnapshotRef&) = default;
};

// One change of the current snapshot: `snapshot-log` entries.
struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
  friend bool operator==(const SnapshotLogEntry&, const SnapshotLogEntry&) = default;
};

// One previous metadata file: `metadata-log` entries.
struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
  friend bool operator==(const MetadataLogEntry&, const MetadataLogEntry&) = default;
};

// A statistic stored as one blob of a Puffin statistics file.
struct BlobMetadata {
  std::string type;
  int64_t source_snapshot_id = 0;
  int64_t source_snapshot_sequence_number = 0;
  std::vector<int32_t> fields;  // field ids the statistic was computed on, in order
  StringMap properties;
  friend bool operator==(const BlobMetadata&, const BlobMetadata&) = default;
};

// A Puffin file of table statistics for one snapshot (`statistics` entries).
struct StatisticsFile {
  int64_t snapshot_id = 0;
  std::string path;
  int64_t file_size_in_bytes = 0;
  int64_t file_footer_size_in_bytes = 0;
  std::optional<std::string> key_metadata;  // base64, for encrypted tables
  std::vector<BlobMetadata> blob_metadata;
  friend bool operator==(const StatisticsFile&, const StatisticsFile&) = default;
};

// A partition statistics file for one snapshot (`partition-statistics` entries).
struct PartitionStatisticsFile {
  int64_t snapshot_id = 0;
  std::string path;
  int64_t file_size_in_bytes = 0;
  friend bool operator==(const PartitionStatisticsFile&, const PartitionStatisticsFile&) = default;
};

// A v3 table encryption key (`encryption-keys` entries), wrapped by the key `encrypted_by_id` or by
// the catalog's KMS.
struct EncryptedKey {
  std::string key_id;
  std::string encrypted_key_metadata;  // base64
  std::optional<std::string> encrypted_by_id;
  StringMap properties;
  friend bool operator==(const EncryptedKey&, const EncryptedKey&) = default;
};

}  // namespace floe
