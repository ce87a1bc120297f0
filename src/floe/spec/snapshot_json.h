#pragma once

// JSON forms of snapshots, refs, log entries, statistics files and encryption keys (spec Appendix C
// and the field tables of "Snapshots" ... "Encryption Keys"). Readers accept every version's fields
// and ignore unknown ones; writers emit the fields the table's format version defines. Errors are
// kCorruptData naming the field; callers add which list entry it was.

#include "floe/spec/snapshot.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

Result<Snapshot> SnapshotFromJson(const Json& json);
Json SnapshotToJson(const Snapshot& snapshot, int format_version);

Result<SnapshotRef> SnapshotRefFromJson(const Json& json);
Json SnapshotRefToJson(const SnapshotRef& ref);

Result<SnapshotLogEntry> SnapshotLogEntryFromJson(const Json& json);
Json SnapshotLogEntryToJson(const SnapshotLogEntry& entry);

Result<MetadataLogEntry> MetadataLogEntryFromJson(const Json& json);
Json MetadataLogEntryToJson(const MetadataLogEntry& entry);

Result<StatisticsFile> StatisticsFileFromJson(const Json& json);
Json StatisticsFileToJson(const StatisticsFile& file);

Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const Json& json);
Json PartitionStatisticsFileToJson(const PartitionStatisticsFile& file);

Result<EncryptedKey> EncryptedKeyFromJson(const Json& json);
Json EncryptedKeyToJson(const EncryptedKey& key);

}  // namespace floe
