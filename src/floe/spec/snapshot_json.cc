#include "floe/spec/snapshot_json.h"

#include "floe/spec/json_fields.h"

namespace floe {

using json_fields::GetInt32List;
using json_fields::GetOptionalInt32;
using json_fields::GetOptionalLong;
using json_fields::GetStringList;
using json_fields::GetStringMap;
using json_fields::StringMapToJson;

namespace {

std::unexpected<Error> NotAnObject(std::string_view what, const Json& json) {
  return CorruptData("{} must be an object, found {}", what, Json::KindName(json.kind()));
}

}  // namespace

Result<Snapshot> SnapshotFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("a snapshot", json);
  Snapshot s;
  FLOE_ASSIGN_OR_RETURN(s.snapshot_id, json.GetInt("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(s.parent_snapshot_id, GetOptionalLong(json, "parent-snapshot-id"));
  // Required from v2 on, but v1 snapshots carried into an upgraded table have none: they
  // read as sequence number 0, as the spec's inheritance rules treat them.
  FLOE_ASSIGN_OR_RETURN(auto sequence_number, GetOptionalLong(json, "sequence-number"));
  s.sequence_number = sequence_number.value_or(0);
  FLOE_ASSIGN_OR_RETURN(s.timestamp_ms, json.GetInt("timestamp-ms"));
  FLOE_ASSIGN_OR_RETURN(auto manifest_list, json.GetOptionalString("manifest-list"));
  s.manifest_list = manifest_list.value_or("");
  FLOE_ASSIGN_OR_RETURN(s.manifests, GetStringList(json, "manifests"));
  if (!s.manifest_list.empty() && !s.manifests.empty()) {
    return CorruptData("snapshot {} has both 'manifest-list' and 'manifests'", s.snapshot_id);
  }
  FLOE_ASSIGN_OR_RETURN(s.summary, GetStringMap(json, "summary"));
  FLOE_ASSIGN_OR_RETURN(s.schema_id, GetOptionalInt32(json, "schema-id"));
  FLOE_ASSIGN_OR_RETURN(s.first_row_id, GetOptionalLong(json, "first-row-id"));
  FLOE_ASSIGN_OR_RETURN(s.added_rows, GetOptionalLong(json, "added-rows"));
  FLOE_ASSIGN_OR_RETURN(s.key_id, json.GetOptionalString("key-id"));
  return s;
}

Json SnapshotToJson(const Snapshot& s, int format_version) {
  Json out = Json::MakeObject();
  out.Set("snapshot-id", s.snapshot_id);
  if (s.parent_snapshot_id) out.Set("parent-snapshot-id", *s.parent_snapshot_id);
  if (format_version >= 2) out.Set("sequence-number", s.sequence_number);
  out.Set("timestamp-ms", s.timestamp_ms);
  if (!s.manifest_list.empty()) {
    out.Set("manifest-list", s.manifest_list);
  } else if (!s.manifests.empty()) {
    Json manifests = Json::MakeArray();
    for (const auto& m : s.manifests) manifests.Push(m);
    out.Set("manifests", std::move(manifests));
  }
  // Required from v2 on; a v1 snapshot without a summary stays without one.
  if (format_version >= 2 || !s.summary.empty()) out.Set("summary", StringMapToJson(s.summary));
  if (s.schema_id) out.Set("schema-id", *s.schema_id);
  if (format_version >= 3) {
    if (s.first_row_id) out.Set("first-row-id", *s.first_row_id);
    if (s.added_rows) out.Set("added-rows", *s.added_rows);
    if (s.key_id) out.Set("key-id", *s.key_id);
  }
  return out;
}

Result<SnapshotRef> SnapshotRefFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("a snapshot reference", json);
  SnapshotRef ref;
  FLOE_ASSIGN_OR_RETURN(ref.snapshot_id, json.GetInt("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(std::string type, json.GetString("type"));
  if (type == "branch") {
    ref.type = SnapshotRefType::kBranch;
  } else if (type == "tag") {
    ref.type = SnapshotRefType::kTag;
  } else {
    return CorruptData("field 'type' must be 'branch' or 'tag', found '{}'", type);
  }
  FLOE_ASSIGN_OR_RETURN(ref.min_snapshots_to_keep, GetOptionalInt32(json, "min-snapshots-to-keep"));
  FLOE_ASSIGN_OR_RETURN(ref.max_snapshot_age_ms, GetOptionalLong(json, "max-snapshot-age-ms"));
  FLOE_ASSIGN_OR_RETURN(ref.max_ref_age_ms, GetOptionalLong(json, "max-ref-age-ms"));
  return ref;
}

Json SnapshotRefToJson(const SnapshotRef& ref) {
  Json out = Json::MakeObject();
  out.Set("snapshot-id", ref.snapshot_id);
  out.Set("type", SnapshotRefTypeName(ref.type));
  if (ref.min_snapshots_to_keep) out.Set("min-snapshots-to-keep", *ref.min_snapshots_to_keep);
  if (ref.max_snapshot_age_ms) out.Set("max-snapshot-age-ms", *ref.max_snapshot_age_ms);
  if (ref.max_ref_age_ms) out.Set("max-ref-age-ms", *ref.max_ref_age_ms);
  return out;
}

Result<SnapshotLogEntry> SnapshotLogEntryFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("a snapshot-log entry", json);
  SnapshotLogEntry e;
  FLOE_ASSIGN_OR_RETURN(e.timestamp_ms, json.GetInt("timestamp-ms"));
  FLOE_ASSIGN_OR_RETURN(e.snapshot_id, json.GetInt("snapshot-id"));
  return e;
}

Json SnapshotLogEntryToJson(const SnapshotLogEntry& e) {
  Json out = Json::MakeObject();
  out.Set("timestamp-ms", e.timestamp_ms);
  out.Set("snapshot-id", e.snapshot_id);
  return out;
}

Result<MetadataLogEntry> MetadataLogEntryFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("a metadata-log entry", json);
  MetadataLogEntry e;
  FLOE_ASSIGN_OR_RETURN(e.timestamp_ms, json.GetInt("timestamp-ms"));
  FLOE_ASSIGN_OR_RETURN(e.metadata_file, json.GetString("metadata-file"));
  return e;
}

Json MetadataLogEntryToJson(const MetadataLogEntry& e) {
  Json out = Json::MakeObject();
  out.Set("timestamp-ms", e.timestamp_ms);
  out.Set("metadata-file", e.metadata_file);
  return out;
}

namespace {

Result<BlobMetadata> BlobMetadataFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("blob metadata", json);
  BlobMetadata b;
  FLOE_ASSIGN_OR_RETURN(b.type, json.GetString("type"));
  FLOE_ASSIGN_OR_RETURN(b.source_snapshot_id, json.GetInt("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(b.source_snapshot_sequence_number, json.GetInt("sequence-number"));
  FLOE_RETURN_IF_ERROR(json.GetArray("fields"));
  FLOE_ASSIGN_OR_RETURN(b.fields, GetInt32List(json, "fields"));
  FLOE_ASSIGN_OR_RETURN(b.properties, GetStringMap(json, "properties"));
  return b;
}

Json BlobMetadataToJson(const BlobMetadata& b) {
  Json out = Json::MakeObject();
  out.Set("type", b.type);
  out.Set("snapshot-id", b.source_snapshot_id);
  out.Set("sequence-number", b.source_snapshot_sequence_number);
  Json fields = Json::MakeArray();
  for (int32_t id : b.fields) fields.Push(id);
  out.Set("fields", std::move(fields));
  if (!b.properties.empty()) out.Set("properties", StringMapToJson(b.properties));
  return out;
}

}  // namespace

Result<StatisticsFile> StatisticsFileFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("a statistics file", json);
  StatisticsFile f;
  FLOE_ASSIGN_OR_RETURN(f.snapshot_id, json.GetInt("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(f.path, json.GetString("statistics-path"));
  FLOE_ASSIGN_OR_RETURN(f.file_size_in_bytes, json.GetInt("file-size-in-bytes"));
  FLOE_ASSIGN_OR_RETURN(f.file_footer_size_in_bytes, json.GetInt("file-footer-size-in-bytes"));
  FLOE_ASSIGN_OR_RETURN(f.key_metadata, json.GetOptionalString("key-metadata"));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* blobs, json.GetArray("blob-metadata"));
  f.blob_metadata.reserve(blobs->size());
  for (size_t i = 0; i < blobs->size(); ++i) {
    auto blob = BlobMetadataFromJson((*blobs)[i]);
    if (!blob) return std::unexpected(blob.error().AddContext(fmt::format("blob-metadata[{}]", i)));
    f.blob_metadata.push_back(std::move(*blob));
  }
  return f;
}

Json StatisticsFileToJson(const StatisticsFile& f) {
  Json out = Json::MakeObject();
  out.Set("snapshot-id", f.snapshot_id);
  out.Set("statistics-path", f.path);
  out.Set("file-size-in-bytes", f.file_size_in_bytes);
  out.Set("file-footer-size-in-bytes", f.file_footer_size_in_bytes);
  if (f.key_metadata) out.Set("key-metadata", *f.key_metadata);
  Json blobs = Json::MakeArray();
  for (const auto& b : f.blob_metadata) blobs.Push(BlobMetadataToJson(b));
  out.Set("blob-metadata", std::move(blobs));
  return out;
}

Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("a partition statistics file", json);
  PartitionStatisticsFile f;
  FLOE_ASSIGN_OR_RETURN(f.snapshot_id, json.GetInt("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(f.path, json.GetString("statistics-path"));
  FLOE_ASSIGN_OR_RETURN(f.file_size_in_bytes, json.GetInt("file-size-in-bytes"));
  return f;
}

Json PartitionStatisticsFileToJson(const PartitionStatisticsFile& f) {
  Json out = Json::MakeObject();
  out.Set("snapshot-id", f.snapshot_id);
  out.Set("statistics-path", f.path);
  out.Set("file-size-in-bytes", f.file_size_in_bytes);
  return out;
}

Result<EncryptedKey> EncryptedKeyFromJson(const Json& json) {
  if (!json.is_object()) return NotAnObject("an encryption key", json);
  EncryptedKey k;
  FLOE_ASSIGN_OR_RETURN(k.key_id, json.GetString("key-id"));
  FLOE_ASSIGN_OR_RETURN(k.encrypted_key_metadata, json.GetString("encrypted-key-metadata"));
  FLOE_ASSIGN_OR_RETURN(k.encrypted_by_id, json.GetOptionalString("encrypted-by-id"));
  FLOE_ASSIGN_OR_RETURN(k.properties, GetStringMap(json, "properties"));
  return k;
}

Json EncryptedKeyToJson(const EncryptedKey& k) {
  Json out = Json::MakeObject();
  out.Set("key-id", k.key_id);
  out.Set("encrypted-key-metadata", k.encrypted_key_metadata);
  if (k.encrypted_by_id) out.Set("encrypted-by-id", *k.encrypted_by_id);
  if (!k.properties.empty()) out.Set("properties", StringMapToJson(k.properties));
  return out;
}

}  // namespace floe
