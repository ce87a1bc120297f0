// CREATE TABLE (table_statements.h): Iceberg tables in Iceberg catalogs, connector tables in
// default_catalog, LIKE, and AS SELECT handed to write_statements.

#include <algorithm>

#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/statements/catalog_statements.h"
#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/sql/statements/write_statements.h"
#include "floe/sql/statements/write_statements_dynamic_internal.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql {
namespace {

StatementResult Succeeded() { return StatementResult::Message(std::string(kStatementSucceeded)); }

// What LIKE copies from its source besides the columns (Flink's INCLUDING / EXCLUDING options;
// the default is INCLUDING ALL, own options overwriting).
struct LikeParts {
  bool constraints = true;
  bool partitions = true;
  bool options = true;
};

Result<LikeParts> ReadLikeOptions(const LikeClause& like) {
  LikeParts parts;
  for (const auto& [mode, what] : like.options) {
    bool include = mode != "EXCLUDING";
    if (what == "ALL") {
      parts = LikeParts{include, include, include};
    } else if (what == "CONSTRAINTS") {
      parts.constraints = include;
    } else if (what == "PARTITIONS") {
      parts.partitions = include;
    } else if (what == "OPTIONS") {
      parts.options = include;
    } else if (what != "GENERATED" && what != "WATERMARKS" && what != "METADATA") {
      return InvalidArgument("unknown LIKE option {} {}", mode, what);
    }
  }
  return parts;
}

// The source of LIKE, whichever kind it is, in the terms of the statement.
struct LikeSource {
  std::vector<ColumnDef> columns;  // connector source only
  std::vector<std::string> primary_key;
  Options options;
  TableMetadataPtr metadata;  // Iceberg source only
};

Result<LikeSource> LoadLikeSource(Session& session, const LikeClause& like) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolvePlainTable(session, like.source));
  LikeSource source;
  if (name.in_default_catalog()) {
    FLOE_ASSIGN_OR_RETURN(ConnectorTable * table, FindConnectorTable(session, name));
    source.columns = table->columns;
    source.primary_key = table->primary_key;
    source.options = table->options;
    return source;
  }
  FLOE_ASSIGN_OR_RETURN(auto table, LoadIcebergTable(session, name));
  source.metadata = table->metadata();
  source.primary_key = PrimaryKeyNames(*source.metadata->current_schema());
  for (const auto& [key, value] : source.metadata->properties()) {
    source.options.emplace_back(key, value);
  }
  return source;
}

// Options of the source that the statement's own WITH does not override, then the own ones.
Options MergeOptions(const Options& inherited, const Options& own) {
  Options merged;
  for (const auto& option : inherited) {
    bool overridden =
        std::ranges::any_of(own, [&](const auto& o) { return o.first == option.first; });
    if (!overridden) merged.push_back(option);
  }
  merged.insert(merged.end(), own.begin(), own.end());
  return merged;
}

Status CheckLikeConflicts(const CreateTable& statement, const LikeParts& parts,
                          const LikeSource& source, bool source_partitioned) {
  if (parts.partitions && source_partitioned && !statement.partitioned_by.empty()) {
    return InvalidArgument(
        "the LIKE source is partitioned and the statement has its own PARTITIONED BY: add "
        "EXCLUDING PARTITIONS to LIKE");
  }
  bool own_key = !statement.primary_key.empty() ||
                 std::ranges::any_of(statement.columns, &ColumnDef::primary_key);
  if (parts.constraints && !source.primary_key.empty() && own_key) {
    return InvalidArgument(
        "the LIKE source has a primary key and the statement has its own: add EXCLUDING "
        "CONSTRAINTS to LIKE");
  }
  return {};
}

std::unexpected<Error> WatermarkOnIceberg(const WatermarkDef& watermark) {
  return Unsupported("{}", AtPosition(watermark.position,
                                      "watermarks are not supported by floe's Iceberg tables"));
}

// The strategies floe runs: the column itself, or the column less a day-time interval (bounded
// out-of-orderness), as Flink's documentation writes them.
Result<EventTime> ToEventTime(const WatermarkDef& watermark,
                              const std::vector<ColumnDef>& columns) {
  auto column = std::ranges::find(columns, watermark.column, &ColumnDef::name);
  if (column == columns.end()) {
    return InvalidArgument(
        "{}", AtPosition(watermark.position,
                         fmt::format("WATERMARK FOR '{}': no such column", watermark.column)));
  }
  if (column->type.kind != SqlTypeKind::kTimestamp &&
      column->type.kind != SqlTypeKind::kTimestampLtz) {
    return InvalidArgument(
        "{}", AtPosition(watermark.position,
                         fmt::format("WATERMARK FOR '{}': a time attribute must be TIMESTAMP(3) "
                                     "or TIMESTAMP_LTZ(3), not {}",
                                     watermark.column, PrintType(column->type))));
  }
  const Expr& strategy = *watermark.strategy;
  auto is_column = [&](const Expr& e) {
    return e.kind == ExprKind::kColumn && e.name.size() == 1 && e.name[0] == watermark.column;
  };
  if (is_column(strategy)) {
    return EventTime{.column = watermark.column, .strategy = PrintExpr(strategy)};
  }
  if (strategy.kind == ExprKind::kBinary && strategy.op == "-" && is_column(*strategy.args[0])) {
    std::optional<int64_t> micros = DayTimeIntervalMicros(*strategy.args[1]);
    if (micros && *micros >= 0) {
      return EventTime{
          .column = watermark.column, .delay_ms = *micros / 1000, .strategy = PrintExpr(strategy)};
    }
  }
  return Unsupported("{}", AtPosition(strategy.position,
                                      fmt::format("WATERMARK FOR '{}' AS {}: floe runs `{}` and "
                                                  "`{} - INTERVAL '<n>' <unit>` strategies",
                                                  watermark.column, PrintExpr(strategy),
                                                  watermark.column, watermark.column)));
}

Result<StatementResult> CreateConnectorTable(Session& session, const ResolvedName& name,
                                             const CreateTable& statement) {
  FLOE_RETURN_IF_ERROR(RequireDatabase(session, name));
  std::string key = ConnectorKey(name);
  if (session.connector_tables().contains(key)) {
    if (statement.if_not_exists) return Succeeded();
    return AlreadyExists("table '{}' already exists", name.ToString());
  }
  ConnectorTable table;
  table.comment = statement.comment;
  table.options = statement.options;
  table.columns = statement.columns;
  table.primary_key = PrimaryKeyOf(statement.columns, statement.primary_key);
  if (statement.like.has_value()) {
    FLOE_ASSIGN_OR_RETURN(LikeParts parts, ReadLikeOptions(*statement.like));
    FLOE_ASSIGN_OR_RETURN(LikeSource source, LoadLikeSource(session, *statement.like));
    if (source.metadata != nullptr) {
      return InvalidArgument("a connector table cannot be LIKE the Iceberg table '{}'",
                             PrintName(statement.like->source));
    }
    FLOE_RETURN_IF_ERROR(CheckLikeConflicts(statement, parts, source, false));
    table.columns.insert(table.columns.begin(), source.columns.begin(), source.columns.end());
    if (parts.constraints && table.primary_key.empty()) table.primary_key = source.primary_key;
    if (parts.options) table.options = MergeOptions(source.options, statement.options);
  }
  FLOE_ASSIGN_OR_RETURN(StringMap options, ToStringMap(table.options, "table"));
  auto connector = options.find("connector");
  if (connector == options.end()) {
    return InvalidArgument(
        "table '{}': {} holds only connector tables (WITH ('connector' = 'datagen' | "
        "'filesystem' | 'kafka' | 'iceberg' | ...)); to create an Iceberg table, create an Iceberg "
        "catalog (CREATE CATALOG c WITH ('type' = 'iceberg', ...)) and USE CATALOG c",
        name.ToString(), kDefaultCatalog);
  }
  if (!statement.partitioned_by.empty()) {
    return Unsupported("table '{}': PARTITIONED BY is not supported on connector tables",
                       name.ToString());
  }
  for (const std::string& column : table.primary_key) {
    if (std::ranges::find(table.columns, column, &ColumnDef::name) == table.columns.end()) {
      return InvalidArgument("primary key column '{}' is not a column of the table", column);
    }
  }
  for (const ColumnDef& column : table.columns) {
    if (column.metadata && connector->second != "kafka" && connector->second != "upsert-kafka") {
      return Unsupported(
          "table '{}': column '{}': metadata columns are read by the kafka and upsert-kafka "
          "connectors only",
          name.ToString(), column.name);
    }
  }
  if (statement.watermark) {
    if (connector->second == "iceberg") return WatermarkOnIceberg(*statement.watermark);
    FLOE_ASSIGN_OR_RETURN(table.watermark, ToEventTime(*statement.watermark, table.columns));
  }
  if (IsDynamicSinkTable(table)) {
    FLOE_RETURN_IF_ERROR(CheckDynamicSinkTable(key, table));
  } else if (connector->second == "iceberg") {
    FLOE_RETURN_IF_ERROR(IcebergConnectorLoader(key, table));
  }
  session.connector_tables().emplace(std::move(key), std::move(table));
  return Succeeded();
}

// The schema of CREATE TABLE ... LIKE an Iceberg table: the source's schema (ids, nested fields
// and types kept as they are), then the statement's own columns.
Result<SchemaPtr> LikeSchema(const Schema& source, const CreateTable& statement, bool keep_key) {
  std::vector<NestedField> fields(source.fields().begin(), source.fields().end());
  std::vector<int32_t> key = keep_key ? source.identifier_field_ids() : std::vector<int32_t>{};
  if (!statement.columns.empty()) {
    FLOE_ASSIGN_OR_RETURN(SchemaPtr own, ToIcebergSchema(statement.columns, statement.primary_key));
    int32_t last_id = source.highest_field_id();
    SchemaPtr renumbered = own->AssignFreshIds(&last_id);
    for (const NestedField& field : renumbered->fields()) {
      if (source.FindField(field.name) != nullptr) {
        return InvalidArgument("column '{}' is already a column of the LIKE source", field.name);
      }
      fields.push_back(field);
    }
    for (int32_t id : renumbered->identifier_field_ids()) key.push_back(id);
  }
  return Schema::Make(std::move(fields), Schema::kInitialSchemaId, std::move(key));
}

Result<StatementResult> CreateIcebergTable(Session& session, const ResolvedName& name,
                                           const CreateTable& statement) {
  if (statement.watermark) return WatermarkOnIceberg(*statement.watermark);
  FLOE_ASSIGN_OR_RETURN(auto catalog, session.IcebergCatalog(name));
  FLOE_RETURN_IF_ERROR(RequireDatabase(session, name));
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog->TableExists(name.ident()));
  if (exists) {
    if (statement.if_not_exists) return Succeeded();
    return AlreadyExists("table '{}' already exists", name.ToString());
  }
  catalog::CreateTableRequest request;
  Options options = statement.options;
  if (statement.like.has_value()) {
    FLOE_ASSIGN_OR_RETURN(LikeParts parts, ReadLikeOptions(*statement.like));
    FLOE_ASSIGN_OR_RETURN(LikeSource source, LoadLikeSource(session, *statement.like));
    if (source.metadata == nullptr) {
      return InvalidArgument(
          "an Iceberg table cannot be LIKE the connector table '{}': its options are not table "
          "properties",
          PrintName(statement.like->source));
    }
    const TableMetadata& metadata = *source.metadata;
    FLOE_RETURN_IF_ERROR(
        CheckLikeConflicts(statement, parts, source, !metadata.default_spec()->is_unpartitioned()));
    FLOE_ASSIGN_OR_RETURN(request.schema,
                          LikeSchema(*metadata.current_schema(), statement, parts.constraints));
    if (parts.partitions && !metadata.default_spec()->is_unpartitioned()) {
      request.spec = metadata.default_spec();
    }
    request.sort_order = metadata.default_sort_order();
    if (parts.options) {
      source.options.emplace_back("format-version", std::to_string(metadata.format_version()));
      options = MergeOptions(source.options, statement.options);
    }
  } else {
    FLOE_ASSIGN_OR_RETURN(request.schema,
                          ToIcebergSchema(statement.columns, statement.primary_key));
  }
  if (!statement.partitioned_by.empty()) {
    FLOE_ASSIGN_OR_RETURN(request.spec, ToPartitionSpec(*request.schema, statement.partitioned_by));
  }
  FLOE_ASSIGN_OR_RETURN(request.properties, ToStringMap(options, "table"));
  if (request.properties.contains("connector")) {
    return InvalidArgument(
        "table '{}': 'connector' is an option of default_catalog's connector tables; an Iceberg "
        "catalog's tables take table properties only (create the connector table in {})",
        name.ToString(), kDefaultCatalog);
  }
  if (auto location = request.properties.find("location"); location != request.properties.end()) {
    request.location = location->second;
    request.properties.erase(location);
  }
  if (statement.comment.has_value()) request.properties["comment"] = *statement.comment;
  auto created = catalog->CreateTable(name.ident(), request);
  if (!created) {
    return std::unexpected(
        std::move(created.error()).AddContext(fmt::format("creating table '{}'", name.ToString())));
  }
  return Succeeded();
}

}  // namespace

Result<StatementResult> Execute(Session& session, const CreateTable& statement) {
  if (statement.as_query != nullptr) {
    if (statement.watermark) {
      return Unsupported("{}", AtPosition(statement.watermark->position,
                                          "CREATE TABLE ... AS SELECT takes no WATERMARK"));
    }
    return ExecuteCreateTableAs(session, statement);
  }
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolvePlainTable(session, statement.name));
  if (name.in_default_catalog()) return CreateConnectorTable(session, name, statement);
  return CreateIcebergTable(session, name, statement);
}

}  // namespace floe::sql
