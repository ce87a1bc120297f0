#include "floe/cli/scan_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <map>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/cli/command_line_io.h"
#include "floe/cli/commands.h"
#include "floe/cli/table_ref.h"
#include "floe/io/location.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/sql/scalar/table_filter.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/util/json.h"
#include "floe/util/uuid.h"

namespace floe::cli {
namespace {

struct LoadedTable {
  std::string metadata_file;
  TableMetadataPtr metadata;
  std::shared_ptr<io::FileIO> io;
  table::LocationMapping mapping;
};

// A table in a catalog: its files are where the catalog's FileIO finds them.
Result<LoadedTable> LoadFromCatalog(const std::string& table,
                                    const std::vector<std::string>& catalog_properties) {
  FLOE_ASSIGN_OR_RETURN(TableRef ref, ResolveTableRef(table, catalog_properties));
  FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, ref.catalog->LoadTable(ref.ident));
  return LoadedTable{.metadata_file = loaded.metadata_location,
                     .metadata = loaded.metadata,
                     .io = ref.catalog->file_io()};
}

Result<LoadedTable> Load(const std::string& table, const std::optional<std::string>& map) {
  std::shared_ptr<io::FileIO> io = CommandLineFileIO();
  FLOE_ASSIGN_OR_RETURN(io::FileEntry info, io->GetInfo(table));
  LoadedTable loaded;
  std::string dir = table;
  if (info.is_dir) {
    FLOE_ASSIGN_OR_RETURN(loaded.metadata_file, FindCurrentMetadataLocation(*io, table));
  } else {
    loaded.metadata_file = table;
    // <table>/metadata/<file>: the table folder is two levels up.
    dir = io::ParentLocation(io::ParentLocation(table));
  }
  FLOE_ASSIGN_OR_RETURN(loaded.metadata, ReadTableMetadata(*io, loaded.metadata_file));
  if (map) {
    const size_t eq = map->find('=');
    if (eq == std::string::npos || eq == 0) {
      return InvalidArgument("--location-map wants OLD=NEW, got '{}'", *map);
    }
    loaded.mapping = table::LocationMapping{map->substr(0, eq), map->substr(eq + 1)};
  } else {
    loaded.mapping = table::LocationMapping::ForTable(*loaded.metadata, dir);
  }
  loaded.io = loaded.mapping.empty() ? std::shared_ptr<io::FileIO>(io)
                                     : table::MapLocations(io, loaded.mapping);
  return loaded;
}

// The array with uuid columns (at any depth) as canonical strings, for printing.
Result<Array> UuidsAsText(const Array& array, const Type& type) {
  switch (type.id()) {
    case TypeId::kUuid: {
      StringBuilder builder(DataType::String());
      for (int64_t i = 0; i < array.length(); ++i) {
        if (array.IsNull(i)) {
          builder.AppendNull();
        } else {
          builder.Append(UuidToString(array.GetView(i)));
        }
      }
      return builder.Finish();
    }
    case TypeId::kStruct: {
      const auto fields = static_cast<const StructType&>(type).fields();
      std::vector<Array> children;
      std::vector<Field> out_fields;
      for (size_t f = 0; f < fields.size(); ++f) {
        FLOE_ASSIGN_OR_RETURN(Array child,
                              UuidsAsText(array.field(static_cast<int>(f)), *fields[f].type));
        Field field = array.type()->field(static_cast<int>(f));
        field.type = child.type();
        out_fields.push_back(std::move(field));
        children.push_back(std::move(child));
      }
      BitmapBuilder validity;
      for (int64_t i = 0; i < array.length(); ++i) validity.Append(array.IsValid(i));
      return Array(DataType::Struct(std::move(out_fields)), array.length(),
                   array.null_count() ? validity.Finish() : Buffer(), {}, {}, std::move(children),
                   array.null_count());
    }
    case TypeId::kList: {
      FLOE_ASSIGN_OR_RETURN(
          Array values,
          UuidsAsText(array.list_values(), *static_cast<const ListType&>(type).element().type));
      Field element = array.type()->field(0);
      element.type = values.type();
      return Array(DataType::List(std::move(element)), array.length(), array.validity(),
                   array.values(), {}, {std::move(values)}, array.null_count(), array.offset());
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      const Array& entries = array.child(0);
      FLOE_ASSIGN_OR_RETURN(Array keys, UuidsAsText(entries.field(0), *map.key().type));
      FLOE_ASSIGN_OR_RETURN(Array items, UuidsAsText(entries.field(1), *map.value().type));
      Field key = array.type()->key_field();
      key.type = keys.type();
      Field value = array.type()->item_field();
      value.type = items.type();
      DataTypePtr map_type = DataType::Map(std::move(key), std::move(value));
      Array new_entries(map_type->field(0).type, keys.length(), {}, {}, {},
                        {std::move(keys), std::move(items)}, 0);
      return Array(map_type, array.length(), array.validity(), array.values(), {},
                   {std::move(new_entries)}, array.null_count(), array.offset());
    }
    default:
      return array;
  }
}

bool HasUuid(const Type& type) {
  switch (type.id()) {
    case TypeId::kUuid:
      return true;
    case TypeId::kStruct:
      for (const auto& f : static_cast<const StructType&>(type).fields()) {
        if (HasUuid(*f.type)) return true;
      }
      return false;
    case TypeId::kList:
      return HasUuid(*static_cast<const ListType&>(type).element().type);
    case TypeId::kMap:
      return HasUuid(*static_cast<const MapType&>(type).key().type) ||
             HasUuid(*static_cast<const MapType&>(type).value().type);
    default:
      return false;
  }
}

Result<int64_t> ParseAsOf(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    return std::stoll(text);
  }
  auto literal = Literal::FromJson(types::TimestampTz(), Json(text));
  if (!literal) {
    return InvalidArgument("--as-of wants milliseconds or an ISO timestamp with a zone, got '{}'",
                           text);
  }
  const int64_t micros = literal->long_value();
  return micros / 1000 - (micros % 1000 < 0 ? 1 : 0);
}

Status Scan(const ScanArgs& args, std::FILE* out) {
  if (!args.catalog_properties.empty() && args.location_map) {
    return InvalidArgument("--location-map applies to table folders, not to --catalog tables");
  }
  FLOE_ASSIGN_OR_RETURN(LoadedTable t, args.catalog_properties.empty()
                                           ? Load(args.table, args.location_map)
                                           : LoadFromCatalog(args.table, args.catalog_properties));
  table::TableScan scan(t.metadata, t.io);
  scan.WithLocationMapping(t.mapping);
  const int selectors =
      args.snapshot_id.has_value() + args.as_of.has_value() + args.ref.has_value();
  if (selectors > 1) return InvalidArgument("use one of --snapshot-id, --as-of and --ref");
  if (args.snapshot_id) scan.UseSnapshot(*args.snapshot_id);
  if (args.as_of) {
    FLOE_ASSIGN_OR_RETURN(int64_t ms, ParseAsOf(*args.as_of));
    scan.AsOfTime(ms);
  }
  if (args.ref) scan.UseRef(*args.ref);
  if (!args.columns.empty()) scan.Select(args.columns);
  FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, scan.schema());
  if (args.filter) {
    // Nothing filters the rows after the scan: the whole filter must have an Iceberg form.
    FLOE_ASSIGN_OR_RETURN(sql::TableFilter filter, sql::BindTableFilter(*args.filter, *schema));
    FLOE_ASSIGN_OR_RETURN(expr::ExprPtr iceberg,
                          sql::ToExactIcebergFilter(*filter.predicate, filter.scope));
    scan.Filter(std::move(iceberg));
  }
  FLOE_ASSIGN_OR_RETURN(SchemaPtr projected, scan.ProjectedSchema());
  FLOE_ASSIGN_OR_RETURN(std::vector<table::CombinedScanTask> tasks, scan.PlanTasks());
  table::TaskReadOptions options;
  options.batch_rows = 4096;
  if (auto it = t.metadata->properties().find("schema.name-mapping.default");
      it != t.metadata->properties().end()) {
    FLOE_ASSIGN_OR_RETURN(options.name_mapping, table::ParseNameMapping(it->second));
  }
  table::TaskReader reader(t.io, schema, projected, options);
  const bool uuids = HasUuid(*projected->as_struct());
  int64_t remaining = args.limit.value_or(INT64_MAX);
  std::string text;
  auto print = [&](RecordBatch batch) -> Status {
    if (remaining <= 0) return Ok();
    if (batch.num_rows() > remaining) batch = batch.Slice(0, remaining);
    remaining -= batch.num_rows();
    if (uuids) {
      std::vector<Array> columns;
      std::vector<Field> fields;
      for (int c = 0; c < batch.num_columns(); ++c) {
        FLOE_ASSIGN_OR_RETURN(Array column,
                              UuidsAsText(batch.column(c), *projected->fields()[c].type));
        Field field = batch.field(c);
        field.type = column.type();
        fields.push_back(std::move(field));
        columns.push_back(std::move(column));
      }
      FLOE_ASSIGN_OR_RETURN(batch, RecordBatch::Make(std::make_shared<BatchSchema>(fields),
                                                     std::move(columns), batch.num_rows()));
    }
    text.clear();
    AppendJsonLines(batch, text);
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
      return IOError("writing rows failed");
    }
    return Ok();
  };
  for (const table::CombinedScanTask& group : tasks) {
    if (remaining <= 0) break;
    FLOE_RETURN_IF_ERROR(reader.Read(group, print));
  }
  return Ok();
}

Status InspectTable(const std::string& path, const std::optional<std::string>& map,
                    const std::vector<std::string>& catalog_properties, std::FILE* out) {
  if (!catalog_properties.empty() && map) {
    return InvalidArgument("--location-map applies to table folders, not to --catalog tables");
  }
  FLOE_ASSIGN_OR_RETURN(LoadedTable t, catalog_properties.empty()
                                           ? Load(path, map)
                                           : LoadFromCatalog(path, catalog_properties));
  const TableMetadata& m = *t.metadata;
  std::string s;
  s += fmt::format(
      "table            {}\nmetadata file    {}\nformat version   {}\nlocation         {}\n", path,
      t.metadata_file, m.format_version(), m.location());
  if (!t.mapping.empty())
    s += fmt::format("mapped           {} -> {}\n", t.mapping.from, t.mapping.to);
  s += fmt::format("\nschema (id {}):\n", m.current_schema()->schema_id());
  for (const auto& field : m.current_schema()->fields())
    s += fmt::format("  {}\n", field.ToString());
  s += fmt::format("\npartition specs (default {}):\n", m.default_spec_id());
  for (const auto& spec : m.partition_specs()) {
    s += fmt::format("  {}: {}\n", spec->spec_id(), spec->ToString());
  }
  s += fmt::format("\nsort orders (default {}):\n", m.default_sort_order_id());
  for (const auto& order : m.sort_orders()) {
    s += fmt::format("  {}: {}\n", order->order_id(), order->ToString());
  }
  const auto current = m.current_snapshot_id();
  s += fmt::format("\nsnapshots ({}):\n", m.snapshots().size());
  for (const auto& snap : m.snapshots()) {
    s += fmt::format("  {}{} parent {} at {} {}", snap->snapshot_id,
                     current == snap->snapshot_id ? " (current)" : "",
                     snap->parent_snapshot_id ? std::to_string(*snap->parent_snapshot_id) : "none",
                     snap->timestamp_ms, snap->operation().empty() ? "-" : snap->operation());
    for (const char* key : {"total-records", "total-data-files", "total-delete-files",
                            "total-position-deletes", "total-equality-deletes"}) {
      if (auto it = snap->summary.find(key); it != snap->summary.end()) {
        s += fmt::format(" {}={}", key, it->second);
      }
    }
    s += "\n";
  }
  s += fmt::format("\nrefs ({}):\n", m.refs().size());
  for (const auto& [name, ref] : m.refs()) {
    s += fmt::format("  {} {} -> {}\n", name, SnapshotRefTypeName(ref.type), ref.snapshot_id);
  }
  if (SnapshotPtr snap = m.current_snapshot()) {
    std::map<std::string, std::pair<int64_t, int64_t>> counts;  // content -> files, records
    FLOE_ASSIGN_OR_RETURN(auto list_file, t.io->NewInputFile(snap->manifest_list));
    FLOE_ASSIGN_OR_RETURN(auto manifests, manifest::ReadManifestList(*list_file));
    for (const manifest::ManifestFile& mf : manifests) {
      FLOE_ASSIGN_OR_RETURN(auto file, t.io->NewInputFile(mf.manifest_path));
      FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(*file, &mf));
      manifest::ManifestEntry entry;
      while (true) {
        FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(entry));
        if (!more) break;
        if (entry.status == manifest::EntryStatus::kDeleted) continue;
        std::string content(manifest::FileContentName(entry.data_file.content));
        if (entry.data_file.content == manifest::FileContent::kPositionDeletes &&
            entry.data_file.file_format == "puffin") {
          content = "deletion_vectors";
        }
        auto& [files, records] = counts[content];
        ++files;
        records += entry.data_file.record_count;
      }
    }
    s += "\nlive files of the current snapshot:\n";
    for (const auto& [content, c] : counts) {
      s += fmt::format("  {:<18} {} files, {} records\n", content, c.first, c.second);
    }
  }
  std::fputs(s.c_str(), out);
  return Ok();
}

}  // namespace

int RunScan(const ScanArgs& args, std::FILE* out, std::FILE* err) {
  Status status = Scan(args, out);
  std::fflush(out);
  return status ? kExitOk : ReportBadInput(err, "scan", status.error());
}

int RunInspectTable(const std::string& table, const std::optional<std::string>& location_map,
                    const std::vector<std::string>& catalog_properties, std::FILE* out,
                    std::FILE* err) {
  Status status = InspectTable(table, location_map, catalog_properties, out);
  std::fflush(out);
  return status ? kExitOk : ReportBadInput(err, "inspect table", status.error());
}

void AddScanCommand(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("scan", "Print the rows of an Iceberg table as JSON lines");
  auto args = std::make_shared<ScanArgs>();
  cmd->add_option("TABLE", args->table,
                  "table folder or metadata file, or catalog.db.table with --catalog")
      ->required();
  cmd->add_option("--catalog", args->catalog_properties,
                  "catalog property KEY=VALUE (catalog-type, warehouse, uri...), repeatable");
  cmd->add_option("--snapshot-id", args->snapshot_id, "read this snapshot");
  cmd->add_option("--as-of", args->as_of,
                  "read the snapshot current at this time (ms or ISO-8601 with zone)");
  cmd->add_option("--ref", args->ref, "read this branch or tag");
  cmd->add_option("--columns", args->columns, "columns to print (comma separated)")->delimiter(',');
  cmd->add_option("--filter", args->filter,
                  "rows to keep, a SQL condition: \"id > 5 and cat = 'a'\", `x` IS NOT NAN...");
  cmd->add_option("--limit", args->limit, "print at most this many rows");
  cmd->add_option("--location-map", args->location_map,
                  "OLD=NEW: read files recorded under OLD from NEW (default: the table's recorded "
                  "location maps to its folder)");
  cmd->callback([args, &exit_code] { exit_code = RunScan(*args, stdout, stderr); });
}

void AddInspectTable(CLI::App& inspect, int& exit_code) {
  CLI::App* cmd = inspect.add_subcommand(
      "table", "Show an Iceberg table: schema, specs, sort orders, snapshots, refs, file counts");
  auto table = std::make_shared<std::string>();
  auto map = std::make_shared<std::optional<std::string>>();
  auto catalog_properties = std::make_shared<std::vector<std::string>>();
  cmd->add_option("TABLE", *table,
                  "table folder or metadata file, or catalog.db.table with --catalog")
      ->required();
  cmd->add_option("--catalog", *catalog_properties,
                  "catalog property KEY=VALUE (catalog-type, warehouse, uri...), repeatable");
  cmd->add_option("--location-map", *map, "OLD=NEW, as for floe scan");
  cmd->callback([table, map, catalog_properties, &exit_code] {
    exit_code = RunInspectTable(*table, *map, *catalog_properties, stdout, stderr);
  });
}

}  // namespace floe::cli
