#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

#include "floe/io/resolving_file_io.h"
#include "floe/sql/plan/join_internal.h"
#include "floe/sql/plan/select_internal.h"
#include "floe/sql/plan/sources_internal.h"
#include "floe/sql/plan/window_internal.h"
#include "floe/sql/plan/with_internal.h"
#include "floe/sql/syntax/printer.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/stream/connectors/file_source.h"
#include "floe/stream/connectors/kafka/kafka_source.h"
#include "floe/stream/iceberg/iceberg_source.h"
#include "floe/stream/watermark_source.h"
#include "floe/table/inspect/metadata_tables.h"
#include "floe/table/table.h"
#include "floe/util/strings.h"

namespace floe::sql::plan {
namespace {

// The read options IcebergSource takes (source_options.h), the keys a hint may set.
constexpr std::array<std::string_view, 15> kReadOptions = {"snapshot-id",
                                                           "as-of-timestamp",
                                                           "branch",
                                                           "tag",
                                                           "streaming",
                                                           "monitor-interval",
                                                           "starting-strategy",
                                                           "start-snapshot-id",
                                                           "start-snapshot-timestamp",
                                                           "end-snapshot-id",
                                                           "split-size",
                                                           "split-lookback",
                                                           "split-file-open-cost",
                                                           "limit",
                                                           "case-sensitive"};

Status CheckHintsAllowed(PlannerContext& context, const TableRef& ref) {
  if (ref.hints.empty()) return {};
  FLOE_ASSIGN_OR_RETURN(bool enabled, context.session().config().dynamic_table_options_enabled());
  if (!enabled) {
    return InvalidArgument(
        "OPTIONS hint on table {}: dynamic table options are disabled; SET '{}' = 'true' to use "
        "them",
        PrintName(ref.name), option::kDynamicOptions);
  }
  return {};
}

Result<StringMap> IcebergReadOptions(const TableRef& ref) {
  StringMap options;
  for (const auto& [key, value] : ref.hints) {
    if (std::find(kReadOptions.begin(), kReadOptions.end(), key) == kReadOptions.end()) {
      std::string known;
      for (std::string_view option : kReadOptions) {
        if (!known.empty()) known += ", ";
        known += option;
      }
      return InvalidArgument("OPTIONS hint on table {}: unknown read option '{}' (known: {})",
                             PrintName(ref.name), key, known);
    }
    options[key] = value;
  }
  return options;
}

std::string Qualifier(const TableRef& ref, const ResolvedName& name) {
  return ref.alias ? *ref.alias : name.table;
}

std::string ListText(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) {
    if (!text.empty()) text += ", ";
    text += item;
  }
  return text;
}

bool IsTrue(const std::optional<std::string>& value) {
  return value.has_value() && EqualsIgnoreCase(*value, "true");
}

// A streaming read's start-snapshot-id is exclusive in the connector documentation ("records from
// this snapshot will be excluded": the legacy source) and inclusive in the FLIP-27 source, which
// the runtime implements by default. Unless the session opts in to FLIP-27
// (table.exec.iceberg.use-flip27-source), the read leaves the given snapshot out
// (start-snapshot-exclusive), also while it is still the current one.
void ApplyLegacyStart(PlannerContext& context, StringMap& options) {
  auto start = options.find("start-snapshot-id");
  auto streaming = options.find("streaming");
  if (start == options.end() || streaming == options.end() || !IsTrue(streaming->second) ||
      options.contains("starting-strategy") ||
      IsTrue(context.session().config().Get("table.exec.iceberg.use-flip27-source"))) {
    return;
  }
  options.emplace("start-snapshot-exclusive", "true");
}

Result<Relation> PlanIcebergTable(PlannerContext& context, stream::TableLoader loader,
                                  const TableRef& ref, const std::string& qualifier,
                                  const ColumnUse& use, const Expr* where) {
  FLOE_ASSIGN_OR_RETURN(StringMap options, IcebergReadOptions(ref));
  ApplyLegacyStart(context, options);
  stream::IcebergSource::Builder builder = stream::IcebergSource::ForRows(loader);
  builder.SetAll(options);
  // A first build gives the table's columns (of the snapshot the options select).
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<stream::Source> whole, builder.Build());
  std::vector<ScopeColumn> table_columns = ColumnsOf(*whole->schema(), qualifier);
  Scope table_scope(table_columns);

  // Each WHERE conjunct that binds to this table alone may be pushed; one naming another FROM
  // item's column is not (the caller binds the whole WHERE and reports real errors).
  std::vector<std::string> pushed;
  if (where != nullptr) {
    std::vector<const Expr*> conjuncts;
    SplitConjuncts(*where, conjuncts);
    for (const Expr* conjunct : conjuncts) {
      auto predicate = BindScalar(*conjunct, table_scope);
      if (!predicate.has_value()) continue;
      expr::ExprPtr filter = ToIcebergFilter(**predicate, table_scope);
      if (filter && filter->op() != expr::Op::kTrue) {
        pushed.push_back(filter->ToString());
        builder.Filter(std::move(filter));
      }
    }
  }
  std::vector<std::string> projected;
  for (const ScopeColumn& column : table_columns) {
    if (use.Needs(qualifier, column.name)) projected.push_back(column.name);
  }
  // COUNT(*) reads no column, but rows still have to come: read the narrowest one, the first.
  if (projected.empty() && !table_columns.empty()) projected.push_back(table_columns[0].name);
  builder.Project(projected);
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<stream::Source> source, builder.Build());

  std::string note =
      fmt::format("IcebergSource(table=[{}], fields=[{}]", loader.ToString(), ListText(projected));
  if (!pushed.empty()) note += fmt::format(", filter=[{}]", ListText(pushed));
  if (!options.empty()) {
    std::vector<std::string> shown;
    for (const auto& [key, value] : options) shown.push_back(key + "=" + value);
    note += fmt::format(", options=[{}]", ListText(shown));
  }
  note += source->bounded() ? ")" : ", unbounded)";
  context.Note(std::move(note));

  bool bounded = source->bounded();
  stream::DataStream stream =
      context.env().FromSource(source, context.UniqueName(loader.ToString()));
  return Relation{.stream = stream,
                  .columns = ColumnsOf(*source->schema(), qualifier),
                  .bounded = bounded,
                  .changelog = !bounded};
}

Result<Relation> PlanMetadataTable(PlannerContext& context, const ResolvedName& name,
                                   const std::string& qualifier) {
  FLOE_ASSIGN_OR_RETURN(table::MetadataTable which, table::ParseMetadataTable(name.metadata));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<catalog::Catalog> catalog,
                        context.session().IcebergCatalog(name));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table,
                        table::Table::Load(std::move(catalog), name.ident()));
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr schema, table::MetadataTableSchema(*table, which));
  FLOE_ASSIGN_OR_RETURN(std::vector<RecordBatch> batches, table::ReadMetadataTable(*table, which));
  context.Note(fmt::format("MetadataTable(table=[{}])", name.ToString()));
  auto source = std::make_shared<stream::CollectionSource>(schema, std::move(batches));
  stream::DataStream stream =
      context.env().FromSource(source, context.UniqueName(name.ToString()), 1);
  return Relation{.stream = stream, .columns = ColumnsOf(*schema, qualifier)};
}

std::unexpected<Error> WithTable(Error error, const ResolvedName& name) {
  error.AddContext("table " + name.ToString());
  return std::unexpected<Error>(std::move(error));
}

Result<BatchSchemaPtr> ConnectorSchema(const ConnectorTable& table) {
  std::vector<Field> fields;
  for (const ColumnDef& column : table.columns) {
    FLOE_ASSIGN_OR_RETURN(DataTypePtr type, ToBatchType(column.type));
    bool key = std::find(table.primary_key.begin(), table.primary_key.end(), column.name) !=
               table.primary_key.end();
    fields.push_back(Field{.name = column.name,
                           .type = std::move(type),
                           .nullable = !column.type.not_null && !column.primary_key && !key});
  }
  return std::make_shared<BatchSchema>(std::move(fields));
}

Result<Relation> PlanConnectorTable(PlannerContext& context, const ResolvedName& name,
                                    const TableRef& ref, const std::string& qualifier,
                                    const ColumnUse& use, const Expr* where) {
  std::string key = name.ns.ToString() + "." + name.table;
  auto& tables = context.session().connector_tables();
  auto found = tables.find(key);
  if (found == tables.end()) {
    return NotFound("table {} does not exist", name.ToString());
  }
  const ConnectorTable& table = found->second;
  std::map<std::string, std::string> options;
  for (const auto& [option, value] : table.options) options[option] = value;
  std::string connector = options["connector"];
  options.erase("connector");
  if (connector == "iceberg") {
    FLOE_ASSIGN_OR_RETURN(stream::TableLoader loader,
                          context.session().ConnectorTableLoader(key, table));
    return PlanIcebergTable(context, std::move(loader), ref, qualifier, use, where);
  }
  for (const auto& [option, value] : ref.hints) options[option] = value;
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr schema, ConnectorSchema(table));
  std::shared_ptr<stream::Source> source;
  if (connector == "datagen") {
    auto made = stream::DatagenSource::Make(schema, options);
    if (!made.has_value()) return WithTable(made.error(), name);
    source = *made;
  } else if (connector == "filesystem") {
    // Paths of any scheme floe serves; S3 settings as a catalog's (s3.*, client.*), else from
    // the AWS environment.
    io::Properties storage;
    for (auto it = options.begin(); it != options.end();) {
      if (io::IsStorageProperty(it->first)) {
        storage[it->first] = it->second;
        it = options.erase(it);
      } else {
        ++it;
      }
    }
    auto made = stream::FileSource::Make(io::MakeFileIO(storage), schema, options);
    if (!made.has_value()) return WithTable(made.error(), name);
    source = *made;
  } else if (connector == "kafka" || connector == "upsert-kafka") {
    stream::KafkaTable kafka{.upsert = connector == "upsert-kafka",
                             .primary_key = table.primary_key};
    for (const ColumnDef& column : table.columns) {
      if (column.metadata) kafka.metadata[column.name] = *column.metadata;
    }
    auto made = stream::KafkaSource::Make(schema, options, std::move(kafka));
    if (!made.has_value()) return WithTable(made.error(), name);
    source = *made;
  } else {
    return Unsupported(
        "table {}: connector '{}' has no source in floe (datagen, filesystem, iceberg, kafka, "
        "upsert-kafka)",
        name.ToString(), connector);
  }
  std::string watermark;
  if (table.watermark) {
    FLOE_ASSIGN_OR_RETURN(int64_t idle_timeout_ms,
                          context.session().config().source_idle_timeout_ms());
    auto timed = stream::WithWatermarks(source, {.time_column = table.watermark->column,
                                                 .out_of_orderness_ms = table.watermark->delay_ms,
                                                 .idle_timeout_ms = idle_timeout_ms});
    if (!timed.has_value()) return WithTable(timed.error(), name);
    source = *timed;
    watermark =
        fmt::format(", watermark=[{} - {} ms]", table.watermark->column, table.watermark->delay_ms);
  }
  context.Note(fmt::format("{}Source(table=[{}]{}{})", connector, name.ToString(), watermark,
                           source->bounded() ? "" : ", unbounded"));
  bool bounded = source->bounded();
  stream::DataStream stream = context.env().FromSource(source, context.UniqueName(name.ToString()));
  int rowtime = table.watermark ? schema->FindFieldIndex(table.watermark->column) : -1;
  return Relation{.stream = stream,
                  .columns = ColumnsOf(*schema, qualifier),
                  .bounded = bounded,
                  .rowtime = rowtime};
}

Result<Relation> PlanTable(PlannerContext& context, const TableRef& ref, const ColumnUse& use,
                           const Expr* where) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, context.session().ResolveTable(ref.name));
  if (const SessionView* view = context.session().FindView(name)) {
    return PlanView(context, *view, name, ref);
  }
  FLOE_RETURN_IF_ERROR(CheckHintsAllowed(context, ref));
  std::string qualifier = Qualifier(ref, name);
  if (name.in_default_catalog()) {
    return PlanConnectorTable(context, name, ref, qualifier, use, where);
  }
  if (!name.metadata.empty()) return PlanMetadataTable(context, name, qualifier);
  FLOE_ASSIGN_OR_RETURN(stream::TableLoader loader, context.session().CatalogTableLoader(name));
  return PlanIcebergTable(context, std::move(loader), ref, qualifier, use, where);
}

// `AS t(x, y)`: the item's columns take the new names, one for each.
Result<Relation> RenameColumns(Relation relation, const TableRef& ref) {
  if (ref.column_aliases.empty()) return relation;
  if (ref.column_aliases.size() != relation.columns.size()) {
    return InvalidArgument("{} gives {} column aliases for {} columns", *ref.alias,
                           ref.column_aliases.size(), relation.columns.size());
  }
  for (size_t i = 0; i < relation.columns.size(); ++i) {
    relation.columns[i].name = ref.column_aliases[i];
    // Push-down names the table's own columns.
    relation.columns[i].field_id.reset();
  }
  return relation;
}

}  // namespace

std::vector<ScopeColumn> ColumnsOf(const BatchSchema& schema, const std::string& qualifier) {
  std::vector<ScopeColumn> columns;
  for (const Field& field : schema.fields()) {
    columns.push_back(ScopeColumn{.qualifier = qualifier,
                                  .name = field.name,
                                  .type = field.type,
                                  .nullable = field.nullable,
                                  .field_id = field.field_id});
  }
  return columns;
}

Result<Relation> PlanFrom(PlannerContext& context, const TableRef& ref, const ColumnUse& use,
                          const Expr* where) {
  switch (ref.kind) {
    case TableRef::Kind::kTable: {
      if (const CommonTableExpr* with = FindWithQuery(context, ref.name)) {
        FLOE_ASSIGN_OR_RETURN(Relation relation, PlanWithQuery(context, *with, ref));
        return RenameColumns(std::move(relation), ref);
      }
      if (ref.column_aliases.empty()) return PlanTable(context, ref, use, where);
      // The query names the columns by their aliases: read them all, push nothing down.
      FLOE_ASSIGN_OR_RETURN(Relation relation,
                            PlanTable(context, ref, ColumnUse{.all = true}, nullptr));
      return RenameColumns(std::move(relation), ref);
    }
    case TableRef::Kind::kSubquery: {
      FLOE_ASSIGN_OR_RETURN(Relation relation, PlanQueryNode(context, *ref.query));
      std::string qualifier = ref.alias.value_or("");
      for (ScopeColumn& column : relation.columns) {
        column.qualifier = qualifier;
        column.field_id.reset();
      }
      return RenameColumns(std::move(relation), ref);
    }
    case TableRef::Kind::kJoin:
      return PlanJoin(context, ref, use, where);
    case TableRef::Kind::kWindow:
      return PlanWindowFunction(context, ref);
  }
  return InternalError("unknown FROM item");
}

}  // namespace floe::sql::plan
