#include "floe/sql/metadata_tables.h"

namespace floe::sql {

Result<MetadataTable> ParseMetadataTable(std::string_view) {
  return Unsupported("metadata tables are not implemented yet");
}

Result<BatchSchemaPtr> MetadataTableSchema(const table::Table&, MetadataTable) {
  return Unsupported("metadata tables are not implemented yet");
}

Result<std::vector<RecordBatch>> ReadMetadataTable(const table::Table&, MetadataTable) {
  return Unsupported("metadata tables are not implemented yet");
}

}  // namespace floe::sql
