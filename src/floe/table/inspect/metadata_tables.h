#pragma once

// Iceberg's metadata tables, read as `t$snapshots`: snapshots, history, files (and data_files,
// delete_files), manifests, partitions, refs, metadata_log_entries, all_data_files,
// all_manifests. Column names and types follow the reference implementation's metadata tables.

#include <memory>
#include <string_view>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe::table {

class Table;

enum class MetadataTable : unsigned char {
  kSnapshots,
  kHistory,
  kFiles,
  kDataFiles,
  kDeleteFiles,
  kManifests,
  kPartitions,
  kRefs,
  kMetadataLogEntries,
  kAllDataFiles,
  kAllManifests,
};

// "snapshots" -> kSnapshots (any case); an unknown name is kInvalidArgument listing the known ones.
Result<MetadataTable> ParseMetadataTable(std::string_view name);

// The metadata table's schema for this table (`files` and `partitions` depend on its partition
// spec).
Result<BatchSchemaPtr> MetadataTableSchema(const table::Table& table, MetadataTable which);

// Its rows at the table's current metadata.
Result<std::vector<RecordBatch>> ReadMetadataTable(const table::Table& table, MetadataTable which);

}  // namespace floe::table
