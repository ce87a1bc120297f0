#include "floe/stream/iceberg/write_rows/destination_tables.h"

#include <fmt/format.h>

#include <set>

#include "floe/spec/schema_update.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/scan/schema_projection.h"
#include "floe/table/table.h"
#include "floe/table/update/update_schema.h"
#include "floe/table/update/update_spec.h"
#include "floe/util/clock.h"

namespace floe::stream {
namespace {

// Schema and spec changes lost to a concurrent writer are recomputed this many times.
constexpr int kEvolveAttempts = 8;

// The edits that make the table's schema take rows of `columns`.
struct SchemaEdits {
  std::vector<std::pair<std::string, TypePtr>> add;
  std::vector<std::pair<std::string, TypePtr>> widen;
  std::vector<std::string> make_optional;
  std::vector<std::string> drop;
  bool empty() const {
    return add.empty() && widen.empty() && make_optional.empty() && drop.empty();
  }
};

// Whether values of `rows` (a nested column's type as the rows hold it, with ids of its own) can
// be written to a column of the table's type `table`: the same shape with struct fields matched
// by name, each leaf the table's type or one it widens (spec/schema_update.h), the table's struct
// fields the rows lack optional, and nothing required in the table that the rows may hold null
// (ConformToTable then projects by name). Nested columns are not evolved: kInvalidArgument
// names the first nested field (`path`) that does not fit.
Status NestedFits(const Type& table, const Type& rows, const std::string& path,
                  int format_version) {
  auto misfit = [&](std::string_view why) {
    return InvalidArgument("'{}' is {} in the table, the rows hold {}: {}", path, table.ToString(),
                           rows.ToString(), why);
  };
  auto child = [&](const NestedField& in_table, const NestedField& in_rows,
                   const std::string& name) -> Status {
    if (in_table.required && !in_rows.required) {
      return InvalidArgument("'{}' is required in the table, the rows may hold null", name);
    }
    return NestedFits(*in_table.type, *in_rows.type, name, format_version);
  };
  if (table.Equals(rows)) return Ok();
  if (table.is_primitive() && rows.is_primitive()) {
    if (IsPromotionAllowed(rows, table, format_version)) return Ok();
    return misfit("a nested field's type is not widened");
  }
  if (table.id() != rows.id()) return misfit("not the same kind of type");
  switch (table.id()) {
    case TypeId::kStruct: {
      const auto& table_struct = static_cast<const StructType&>(table);
      const auto& rows_struct = static_cast<const StructType&>(rows);
      for (const NestedField& field : rows_struct.fields()) {
        if (table_struct.FieldByName(field.name) == nullptr) {
          return misfit(
              fmt::format("the table has no field '{}' (nested fields are not added)", field.name));
        }
      }
      for (const NestedField& field : table_struct.fields()) {
        const std::string name = path + "." + field.name;
        const NestedField* given = rows_struct.FieldByName(field.name);
        if (given != nullptr) {
          FLOE_RETURN_IF_ERROR(child(field, *given, name));
        } else if (field.required && !field.initial_default) {
          return InvalidArgument("'{}' is required in the table, the rows lack it", name);
        }
      }
      return Ok();
    }
    case TypeId::kList:
      return child(static_cast<const ListType&>(table).element(),
                   static_cast<const ListType&>(rows).element(), path + ".element");
    case TypeId::kMap: {
      const auto& table_map = static_cast<const MapType&>(table);
      const auto& rows_map = static_cast<const MapType&>(rows);
      FLOE_RETURN_IF_ERROR(child(table_map.key(), rows_map.key(), path + ".key"));
      return child(table_map.value(), rows_map.value(), path + ".value");
    }
    default:
      return misfit("not the same kind of type");
  }
}

Result<SchemaEdits> EditsFor(const TableMetadata& metadata, const BatchSchema& columns,
                             bool drop_unused, const std::string& table) {
  const Schema& schema = *metadata.current_schema();
  SchemaEdits edits;
  std::set<std::string, std::less<>> seen;
  for (const Field& field : columns.fields()) {
    seen.insert(field.name);
    int32_t next_id = 1;
    auto type = table::FromBatchType(*field.type, &next_id);
    if (!type) {
      return InvalidArgument("write rows to {}: column '{}': {}", table, field.name,
                             type.error().message());
    }
    const NestedField* existing = schema.FindField(field.name);
    if (existing == nullptr) {
      edits.add.emplace_back(field.name, *type);
      continue;
    }
    if (existing->type->is_nested() || (*type)->is_nested()) {
      Status fits = NestedFits(*existing->type, **type, field.name, metadata.format_version());
      if (!fits) {
        return InvalidArgument("write rows to {}: {}", table, fits.error().message());
      }
    } else if (!existing->type->Equals(**type)) {
      if (IsPromotionAllowed(*existing->type, **type, metadata.format_version())) {
        edits.widen.emplace_back(field.name, *type);
      } else if (!IsPromotionAllowed(**type, *existing->type, metadata.format_version())) {
        return InvalidArgument(
            "write rows to {}: column '{}' is {} in the table, the rows hold {}, and neither "
            "can become the other",
            table, field.name, existing->type->ToString(), (*type)->ToString());
      }
    }
    if (existing->required && field.nullable) edits.make_optional.push_back(field.name);
  }
  for (const NestedField& column : schema.fields()) {
    if (seen.contains(column.name)) continue;
    if (drop_unused) {
      edits.drop.push_back(column.name);
    } else if (column.required && !column.initial_default) {
      edits.make_optional.push_back(column.name);
    }
  }
  return edits;
}

std::string ColumnsKey(const BatchSchema& columns) { return columns.ToString(); }

}  // namespace

DestinationTables::DestinationTables(std::shared_ptr<catalog::Catalog> catalog,
                                     DynamicDestinations destinations,
                                     DestinationTablesOptions options)
    : catalog_(std::move(catalog)),
      destinations_(std::move(destinations)),
      options_(std::move(options)) {}
DestinationTables::~DestinationTables() = default;

int64_t DestinationTables::Now() const { return options_.clock ? options_.clock() : NowMs(); }

Result<std::shared_ptr<table::Table>> DestinationTables::LoadOrCreate(
    const Destination& destination, const BatchSchema& columns) {
  ++catalog_requests_;
  auto loaded = table::Table::Load(catalog_, destination.table);
  if (loaded || loaded.error().kind() != ErrorKind::kNotFound) return loaded;
  // Created on first sight, namespace too; a concurrent creator may win either race.
  const std::string ns_name = destination.table.ns.ToString();
  if (!namespaces_.contains(ns_name)) {
    ++catalog_requests_;
    Status ns = catalog_->CreateNamespace(destination.table.ns, {});
    if (!ns && ns.error().kind() != ErrorKind::kAlreadyExists) return std::unexpected(ns.error());
    namespaces_.insert(ns_name);
  }
  SchemaPtr schema;
  if (destination.schema) {
    schema = *destination.schema;
  } else {
    std::vector<Field> fields = columns.fields();
    for (Field& field : fields) field.field_id.reset();
    FLOE_ASSIGN_OR_RETURN(schema, table::SchemaFromBatchFields(fields));
  }
  catalog::CreateTableRequest request;
  request.schema = schema;
  FLOE_ASSIGN_OR_RETURN(request.spec, ParsePartitionFields(destination.partition_fields, *schema));
  FLOE_ASSIGN_OR_RETURN(request.sort_order, ParseSortFields(destination.sort_fields, *schema));
  request.properties = {{"format-version", "2"}};
  for (const auto& [key, value] : destination.table_properties) request.properties[key] = value;
  ++catalog_requests_;
  auto created = catalog_->CreateTable(destination.table, request);
  if (created) return std::make_shared<table::Table>(catalog_, std::move(*created));
  // A concurrent creator may have won (kAlreadyExists, or a lost commit race): its table will do.
  ++catalog_requests_;
  auto table = table::Table::Load(catalog_, destination.table);
  if (!table) return std::unexpected(created.error());
  return table;
}

Result<DestinationTables::Entry*> DestinationTables::Get(const std::string& key,
                                                         const BatchSchemaPtr& columns_ptr) {
  const BatchSchema& columns = *columns_ptr;
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    FLOE_ASSIGN_OR_RETURN(Destination destination, destinations_.Describe(key));
    FLOE_RETURN_IF_ERROR(catalog::Validate(destination.table));
    auto entry = std::make_unique<Entry>();
    FLOE_ASSIGN_OR_RETURN(entry->table, LoadOrCreate(destination, columns));
    entry->destination = std::move(destination);
    entry->refreshed_ms = Now();
    FLOE_RETURN_IF_ERROR(EvolveSpec(*entry));
    it = entries_.emplace(key, std::move(entry)).first;
  }
  Entry& entry = *it->second;
  if (Now() - entry.refreshed_ms >= options_.refresh_interval_ms) {
    const int32_t schema_id = entry.table->metadata()->current_schema_id();
    const int32_t spec_id = entry.table->metadata()->default_spec_id();
    ++catalog_requests_;
    FLOE_RETURN_IF_ERROR(entry.table->Refresh());
    entry.refreshed_ms = Now();
    FLOE_ASSIGN_OR_RETURN(bool spec_changed, EvolveSpec(entry));
    if (spec_changed || schema_id != entry.table->metadata()->current_schema_id() ||
        spec_id != entry.table->metadata()->default_spec_id()) {
      ++entry.version;
    }
  }
  if (entry.fits == columns_ptr && entry.fits_version == entry.version) return &entry;
  auto checked_key = std::make_pair(key, ColumnsKey(columns));
  auto checked = checked_.find(checked_key);
  if (checked == checked_.end() || checked->second != entry.version) {
    FLOE_ASSIGN_OR_RETURN(bool changed, Evolve(entry, columns));
    if (changed) ++entry.version;
    checked_[std::move(checked_key)] = entry.version;
  }
  entry.fits = columns_ptr;
  entry.fits_version = entry.version;
  return &entry;
}

Result<bool> DestinationTables::Evolve(Entry& entry, const BatchSchema& columns) {
  const std::string name = entry.destination.table.ToString();
  bool changed = false;
  for (int attempt = 0; attempt < kEvolveAttempts; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(SchemaEdits edits, EditsFor(*entry.table->metadata(), columns,
                                                      options_.drop_unused_columns, name));
    if (edits.empty()) return changed;
    auto update = entry.table->NewUpdateSchema();
    for (auto& [column, type] : edits.add) update->AddColumn(column, type);
    for (auto& [column, type] : edits.widen) update->UpdateColumnType(column, type);
    for (const std::string& column : edits.make_optional) update->MakeOptional(column);
    for (const std::string& column : edits.drop) update->DeleteColumn(column);
    ++catalog_requests_;
    Status committed = update->Commit();
    if (committed) return true;
    if (committed.error().kind() == ErrorKind::kCommitStateUnknown)
      return std::unexpected(committed.error());
    // Another writer may have made (part of) the same change: recompute on fresh metadata.
    ++catalog_requests_;
    FLOE_RETURN_IF_ERROR(entry.table->Refresh());
    changed = true;
    if (attempt + 1 == kEvolveAttempts) return std::unexpected(committed.error());
  }
  return changed;
}

Result<bool> DestinationTables::EvolveSpec(Entry& entry) {
  if (entry.destination.partition_fields.empty()) return false;
  for (int attempt = 0; attempt < kEvolveAttempts; ++attempt) {
    const TableMetadataPtr metadata = entry.table->metadata();
    FLOE_ASSIGN_OR_RETURN(
        PartitionSpecPtr wanted,
        ParsePartitionFields(entry.destination.partition_fields, *metadata->current_schema()));
    const PartitionSpec& current = *metadata->default_spec();
    auto same = [](const PartitionField& a, const PartitionField& b) {
      return a.source_ids == b.source_ids && a.transform == b.transform;
    };
    std::vector<const PartitionField*> add;
    std::vector<std::string> remove;
    for (const PartitionField& field : wanted->fields()) {
      bool found = false;
      for (const PartitionField& have : current.fields()) found |= same(field, have);
      if (!found) add.push_back(&field);
    }
    for (const PartitionField& have : current.fields()) {
      bool found = false;
      for (const PartitionField& field : wanted->fields()) found |= same(field, have);
      if (!found && !have.transform.is_void()) remove.push_back(have.name);
    }
    if (add.empty() && remove.empty()) return attempt > 0;
    auto update = entry.table->NewUpdateSpec();
    for (const std::string& name : remove) update->RemoveField(name);
    for (const PartitionField* field : add) {
      const NestedField* source = metadata->current_schema()->FindField(field->source_id());
      update->AddField(source->name, field->transform, field->name);
    }
    ++catalog_requests_;
    Status committed = update->Commit();
    if (committed) return true;
    if (committed.error().kind() == ErrorKind::kCommitStateUnknown ||
        attempt + 1 == kEvolveAttempts) {
      return std::unexpected(committed.error());
    }
    ++catalog_requests_;
    FLOE_RETURN_IF_ERROR(entry.table->Refresh());
  }
  return true;
}

Result<RecordBatch> ConformToTable(const RecordBatch& rows, const Schema& schema,
                                   const BatchSchemaPtr& table_columns) {
  if (*rows.schema() == *table_columns) return rows;
  std::vector<Array> columns;
  const auto fields = schema.fields();
  columns.reserve(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    const NestedField& target = fields[i];
    const int index = rows.schema()->FindFieldIndex(target.name);
    if (index < 0) {
      FLOE_ASSIGN_OR_RETURN(Array missing, table::MissingArray(target, rows.num_rows()));
      columns.push_back(std::move(missing));
    } else if (rows.field(index).type->Equals(*table_columns->field(static_cast<int>(i)).type)) {
      columns.push_back(rows.column(index));
    } else {
      // By name, as the top-level columns are: the rows' nested field ids are not the table's.
      FLOE_ASSIGN_OR_RETURN(Array projected,
                            table::ProjectArray(rows.column(index), rows.field(index), target,
                                                table::FieldMatch::kByName));
      columns.push_back(std::move(projected));
    }
  }
  for (const Field& field : rows.schema()->fields()) {
    if (schema.FindField(field.name) == nullptr) {
      return InvalidArgument("write rows: column '{}' is not in the table's schema ({})",
                             field.name, table_columns->ToString());
    }
  }
  std::optional<Buffer> kinds;
  if (rows.has_row_kinds()) kinds = Buffer::CopyOf(rows.row_kinds().data(), rows.num_rows());
  return RecordBatch::Make(table_columns, std::move(columns), rows.num_rows(), std::move(kinds));
}

}  // namespace floe::stream
