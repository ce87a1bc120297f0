#include "floe/catalog/new_table.h"

#include <charconv>

#include "floe/io/location.h"
#include "floe/io/s3/s3_options.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/uuid.h"

namespace floe::catalog {
namespace {

// Table properties that name folders for the table's files.
constexpr std::string_view kPathProperties[] = {"write.data.path", "write.metadata.path",
                                                "write.object-storage.path",
                                                "write.folder-storage.path"};

// The id a source column has in the fresh schema, found through its name in the request's schema.
Result<std::vector<int32_t>> MapSources(const std::vector<int32_t>& source_ids, const Schema& from,
                                        const Schema& to) {
  std::vector<int32_t> mapped;
  for (int32_t id : source_ids) {
    std::optional<std::string> name = from.FindColumnName(id);
    const NestedField* field = name ? to.FindField(*name) : nullptr;
    if (!field) return InvalidArgument("source column id {} is not in the table schema", id);
    mapped.push_back(field->id);
  }
  return mapped;
}

Result<int> ParseFormatVersion(const StringMap& properties) {
  auto it = properties.find("format-version");
  if (it == properties.end()) return kDefaultFormatVersion;
  int version = 0;
  auto [end, ec] =
      std::from_chars(it->second.data(), it->second.data() + it->second.size(), version);
  if (ec != std::errc() || end != it->second.data() + it->second.size() ||
      version < TableMetadata::kMinFormatVersion || version > TableMetadata::kMaxFormatVersion) {
    return InvalidArgument("'format-version' must be {} to {}, not '{}'",
                           TableMetadata::kMinFormatVersion, TableMetadata::kMaxFormatVersion,
                           it->second);
  }
  return version;
}

}  // namespace

Result<TableMetadataPtr> NewTableMetadata(const CreateTableRequest& request, std::string location,
                                          int64_t now_ms) {
  if (!request.schema) return InvalidArgument("create table without a schema");
  if (location.empty()) return InvalidArgument("create table without a location");
  location = io::AbsoluteLocation(location);
  FLOE_ASSIGN_OR_RETURN(int version, ParseFormatVersion(request.properties));

  int32_t last_column_id = 0;
  SchemaPtr schema = request.schema->AssignFreshIds(&last_column_id);

  std::vector<PartitionField> partition_fields;
  int32_t next_partition_id = PartitionSpec::kFirstFieldId;
  if (request.spec) {
    for (const PartitionField& field : request.spec->fields()) {
      FLOE_ASSIGN_OR_RETURN(std::vector<int32_t> sources,
                            MapSources(field.source_ids, *request.schema, *schema));
      partition_fields.push_back(PartitionField{.source_ids = std::move(sources),
                                                .field_id = next_partition_id++,
                                                .name = field.name,
                                                .transform = field.transform});
    }
  }
  FLOE_ASSIGN_OR_RETURN(
      PartitionSpecPtr spec,
      PartitionSpec::Make(*schema, PartitionSpec::kInitialSpecId, std::move(partition_fields)));

  SortOrderPtr order = SortOrder::Unsorted();
  if (request.sort_order && !request.sort_order->is_unsorted()) {
    std::vector<SortField> sort_fields;
    for (const SortField& field : request.sort_order->fields()) {
      SortField mapped = field;
      FLOE_ASSIGN_OR_RETURN(mapped.source_ids,
                            MapSources(field.source_ids, *request.schema, *schema));
      sort_fields.push_back(std::move(mapped));
    }
    FLOE_ASSIGN_OR_RETURN(
        order, SortOrder::Make(*schema, SortOrder::kInitialOrderId, std::move(sort_fields)));
  }

  FLOE_RETURN_IF_ERROR(io::RefuseStoredSecrets(request.properties));
  StringMap properties = request.properties;
  properties.erase("format-version");
  for (std::string_view key : kPathProperties) {
    if (auto it = properties.find(key); it != properties.end()) {
      it->second = io::AbsoluteLocation(it->second);
    }
  }

  TableMetadataBuilder builder(version);
  builder.SetTableUuid(RandomUuid())
      .SetLocation(std::move(location))
      .SetLastUpdatedMs(now_ms)
      .SetLastColumnId(last_column_id)
      .AddSchema(schema)
      .SetCurrentSchemaId(schema->schema_id())
      .AddPartitionSpec(spec)
      .SetDefaultSpecId(spec->spec_id())
      .SetLastPartitionId(spec->last_assigned_field_id())
      .AddSortOrder(order)
      .SetDefaultSortOrderId(order->order_id())
      .SetProperties(std::move(properties));
  return builder.Build();
}

}  // namespace floe::catalog
