#include "floe/catalog/metadata_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>

#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/util/uuid.h"

namespace floe::catalog {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

Result<int64_t> ParseInt(std::string_view key, std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgument("table property {}: '{}' is not an integer", key, text);
  }
  return value;
}

std::string_view CodecExtension(MetadataCompression codec) {
  return codec == MetadataCompression::kGzip ? ".gz.metadata.json" : ".metadata.json";
}

// The id a column of `from` has in `to`, found by its full name: fresh ids keep names.
Result<int32_t> Rebind(const Schema& from, const Schema& to, int32_t id, std::string_view what) {
  auto name = from.FindColumnName(id);
  const NestedField* field = name ? to.FindField(*name) : nullptr;
  if (field == nullptr)
    return InvalidArgument("{}: source column id {} is not in the schema", what, id);
  return field->id;
}

Result<PartitionSpecPtr> FreshSpec(const PartitionSpec* spec, const Schema& old_schema,
                                   const Schema& schema) {
  std::vector<PartitionField> fields;
  if (spec != nullptr) {
    int32_t next_id = PartitionSpec::kFirstFieldId;
    for (const PartitionField& field : spec->fields()) {
      PartitionField fresh = field;
      fresh.field_id = next_id++;
      for (int32_t& source : fresh.source_ids) {
        FLOE_ASSIGN_OR_RETURN(source, Rebind(old_schema, schema, source, "partition spec"));
      }
      fields.push_back(std::move(fresh));
    }
  }
  return PartitionSpec::Make(schema, PartitionSpec::kInitialSpecId, std::move(fields));
}

Result<SortOrderPtr> FreshSortOrder(const SortOrder* order, const Schema& old_schema,
                                    const Schema& schema) {
  if (order == nullptr || order->is_unsorted()) return SortOrder::Unsorted();
  std::vector<SortField> fields(order->fields().begin(), order->fields().end());
  for (SortField& field : fields) {
    for (int32_t& source : field.source_ids) {
      FLOE_ASSIGN_OR_RETURN(source, Rebind(old_schema, schema, source, "sort order"));
    }
  }
  return SortOrder::Make(schema, SortOrder::kInitialOrderId, std::move(fields));
}

}  // namespace

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string DefaultTableLocation(std::string_view warehouse, const TableIdentifier& ident) {
  std::string location = io::NormalizeLocation(warehouse);
  for (const std::string& level : ident.ns.levels) location = io::JoinLocation(location, level);
  return io::JoinLocation(location, ident.name);
}

std::string MetadataFolder(const TableMetadata& metadata) {
  std::string_view path = metadata.property(kMetadataPathProperty);
  if (!path.empty()) return io::NormalizeLocation(path);
  return io::JoinLocation(metadata.location(), "metadata");
}

Result<MetadataCompression> MetadataCodec(const TableMetadata& metadata) {
  std::string codec = Lower(metadata.property(kMetadataCompressionProperty, "none"));
  if (codec == "none") return MetadataCompression::kNone;
  if (codec == "gzip") return MetadataCompression::kGzip;
  return InvalidArgument("table property {}: unknown codec '{}' (expected none or gzip)",
                         kMetadataCompressionProperty, codec);
}

Result<std::string> VersionedMetadataFileName(const TableMetadata& metadata, int64_t version) {
  FLOE_ASSIGN_OR_RETURN(MetadataCompression codec, MetadataCodec(metadata));
  return fmt::format("v{}{}", version, CodecExtension(codec));
}

Result<std::string> NewMetadataLocation(const TableMetadata& metadata,
                                        std::string_view previous_location) {
  FLOE_ASSIGN_OR_RETURN(MetadataCompression codec, MetadataCodec(metadata));
  int64_t version = 0;
  if (!previous_location.empty()) {
    if (auto previous = ParseMetadataVersion(previous_location)) version = *previous + 1;
  }
  return io::JoinLocation(MetadataFolder(metadata),
                          fmt::format("{:05d}-{}{}", version, NewUuidV4(), CodecExtension(codec)));
}

std::optional<int64_t> ParseMetadataVersion(std::string_view location) {
  std::string name = io::FileName(location);
  std::string_view stem = name;
  // "v<N>.metadata.json" or "<N>-<uuid>.metadata.json": what follows the digits tells which.
  bool versioned = stem.starts_with('v');
  if (versioned) stem.remove_prefix(1);
  size_t end = 0;
  while (end < stem.size() && std::isdigit(static_cast<unsigned char>(stem[end]))) ++end;
  if (end == 0 || end > 18) return std::nullopt;
  if (!stem.substr(end).starts_with(versioned ? '.' : '-')) return std::nullopt;
  if (!name.ends_with(".metadata.json") && !name.ends_with(".metadata.json.gz")) {
    return std::nullopt;
  }
  int64_t value = 0;
  std::from_chars(stem.data(), stem.data() + end, value);
  return value;
}

Result<TableMetadataPtr> NewTableMetadata(const CreateTableRequest& request, std::string location,
                                          int64_t now_ms) {
  if (request.schema == nullptr) return InvalidArgument("create table: no schema");
  StringMap properties = request.properties;
  int format_version = kDefaultFormatVersion;
  if (auto it = properties.find(kFormatVersionProperty); it != properties.end()) {
    FLOE_ASSIGN_OR_RETURN(int64_t version, ParseInt(kFormatVersionProperty, it->second));
    if (version < TableMetadata::kMinFormatVersion || version > TableMetadata::kMaxFormatVersion) {
      return InvalidArgument("table property format-version: {} is not supported (1 to {})",
                             version, TableMetadata::kMaxFormatVersion);
    }
    format_version = static_cast<int>(version);
    properties.erase(it);
  }

  int32_t last_column_id = 0;
  SchemaPtr schema = request.schema->AssignFreshIds(&last_column_id);
  FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec,
                        FreshSpec(request.spec.get(), *request.schema, *schema));
  FLOE_ASSIGN_OR_RETURN(SortOrderPtr order,
                        FreshSortOrder(request.sort_order.get(), *request.schema, *schema));

  TableMetadataBuilder builder(format_version);
  builder.SetTableUuid(NewUuidV4())
      .SetLocation(io::NormalizeLocation(location))
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

Result<TableMetadataPtr> AddPreviousMetadataFile(const TableMetadata& updated,
                                                 const TableMetadata& base,
                                                 std::string_view base_location,
                                                 std::vector<std::string>* removed) {
  int64_t max_entries = kDefaultPreviousVersionsMax;
  std::string_view max_text = updated.property(kPreviousVersionsMaxProperty);
  if (!max_text.empty()) {
    FLOE_ASSIGN_OR_RETURN(max_entries, ParseInt(kPreviousVersionsMaxProperty, max_text));
  }
  max_entries = std::max<int64_t>(1, max_entries);

  std::vector<MetadataLogEntry> log = updated.metadata_log();
  log.push_back({base.last_updated_ms(), std::string(base_location)});
  if (static_cast<int64_t>(log.size()) > max_entries) {
    auto drop = static_cast<std::ptrdiff_t>(log.size() - max_entries);
    if (removed != nullptr) {
      for (auto it = log.begin(); it != log.begin() + drop; ++it) {
        removed->push_back(it->metadata_file);
      }
    }
    log.erase(log.begin(), log.begin() + drop);
  }
  TableMetadataBuilder builder(updated);
  builder.SetMetadataLog(std::move(log));
  return builder.Build(TableMetadataBuilder::Mode::kExisting);
}

void DeleteRemovedMetadataFiles(io::FileIO& io, const TableMetadata& committed,
                                const std::vector<std::string>& removed) {
  if (Lower(committed.property(kDeleteAfterCommitProperty, "false")) != "true") return;
  for (const std::string& file : removed) (void)io.Delete(file);
}

}  // namespace floe::catalog
