// DESCRIBE and SHOW CREATE TABLE (table_statements.h): a table as Flink shows it, with Iceberg
// types mapped back to Flink types.

#include <algorithm>

#include "floe/io/s3/s3_options.h"
#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql {
namespace {

constexpr int64_t kMaxLength = 2147483647;

// Flink prints VARCHAR and VARBINARY of the largest length as STRING and BYTES.
void UseShortNames(SqlType& type) {
  if (type.kind == SqlTypeKind::kVarChar && type.params == std::vector<int64_t>{kMaxLength}) {
    type.kind = SqlTypeKind::kString;
    type.params.clear();
  }
  if (type.kind == SqlTypeKind::kVarBinary && type.params == std::vector<int64_t>{kMaxLength}) {
    type.kind = SqlTypeKind::kBytes;
    type.params.clear();
  }
  for (SqlType& element : type.elements) UseShortNames(element);
  for (RowField& field : type.fields) UseShortNames(field.type);
}

// A table in the terms of a CREATE TABLE statement, whichever kind it is.
struct Described {
  std::vector<ColumnDef> columns;
  std::vector<std::string> primary_key;
  std::optional<std::string> comment;
  std::vector<PartitionField> partitioned_by;
  Options options;
  std::optional<EventTime> watermark;
};

Result<Described> Describe(Session& session, const ResolvedName& name) {
  Described out;
  if (name.in_default_catalog()) {
    FLOE_ASSIGN_OR_RETURN(ConnectorTable * table, FindConnectorTable(session, name));
    out.columns = table->columns;
    out.primary_key = table->primary_key;
    // Flink makes key columns NOT NULL, as the Iceberg schema does for Iceberg tables.
    for (ColumnDef& column : out.columns) {
      column.primary_key = false;
      if (std::ranges::find(out.primary_key, column.name) != out.primary_key.end()) {
        column.type.not_null = true;
      }
    }
    out.comment = table->comment;
    out.options = table->options;
    out.watermark = table->watermark;
  } else {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadIcebergTable(session, name));
    TableMetadataPtr metadata = table->metadata();
    const Schema& schema = *metadata->current_schema();
    FLOE_ASSIGN_OR_RETURN(out.columns, ToColumnDefs(schema));
    out.primary_key = PrimaryKeyNames(schema);
    for (const floe::PartitionField& field : metadata->default_spec()->fields()) {
      if (field.transform.is_void()) continue;
      FLOE_ASSIGN_OR_RETURN(PartitionField item, ToPartitionItem(schema, field));
      out.partitioned_by.push_back(std::move(item));
    }
    StringMap properties = metadata->properties();
    if (auto comment = properties.find("comment"); comment != properties.end()) {
      out.comment = comment->second;
      properties.erase(comment);
    }
    out.options.emplace_back("format-version", std::to_string(metadata->format_version()));
    for (const auto& [key, value] : properties) out.options.emplace_back(key, value);
  }
  for (ColumnDef& column : out.columns) UseShortNames(column.type);
  return out;
}

}  // namespace

Result<StatementResult> Execute(Session& session, const DescribeTable& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolvePlainTable(session, statement.name));
  FLOE_ASSIGN_OR_RETURN(Described table, Describe(session, name));
  std::string key_text;
  if (!table.primary_key.empty()) {
    std::string joined;
    for (const std::string& column : table.primary_key) {
      joined += (joined.empty() ? "" : ", ") + column;
    }
    key_text = "PRI(" + joined + ")";
  }
  std::vector<std::string> header = {"name", "type", "null", "key", "extras", "watermark"};
  if (statement.extended) header.emplace_back("comment");
  std::vector<std::vector<std::string>> rows;
  for (const ColumnDef& column : table.columns) {
    bool in_key = std::ranges::find(table.primary_key, column.name) != table.primary_key.end();
    SqlType type = column.type;
    bool nullable = !type.not_null && !in_key;
    type.not_null = false;
    // Flink marks the time attribute and shows its strategy.
    bool rowtime = table.watermark && table.watermark->column == column.name;
    std::vector<std::string> row = {column.name,
                                    PrintType(type) + (rowtime ? " *ROWTIME*" : ""),
                                    nullable ? "TRUE" : "FALSE",
                                    in_key ? key_text : "",
                                    "",
                                    rowtime ? table.watermark->strategy : ""};
    if (statement.extended) row.push_back(column.comment.value_or(""));
    rows.push_back(std::move(row));
  }
  return StatementResult::StringTable(header, rows);
}

Result<StatementResult> Execute(Session& session, const ShowCreateTable& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolvePlainTable(session, statement.name));
  FLOE_ASSIGN_OR_RETURN(Described table, Describe(session, name));
  CreateTable create;
  create.name.parts = {name.catalog};
  create.name.parts.insert(create.name.parts.end(), name.ns.levels.begin(), name.ns.levels.end());
  create.name.parts.push_back(name.table);
  create.columns = std::move(table.columns);
  create.primary_key = std::move(table.primary_key);
  create.comment = std::move(table.comment);
  create.partitioned_by = std::move(table.partitioned_by);
  create.options = std::move(table.options);
  std::erase_if(create.options,
                [](const auto& option) { return io::IsSecretProperty(option.first); });
  Statement printed{.body = std::move(create)};
  return StatementResult::StringTable({"result"}, {{PrintStatement(printed)}});
}

}  // namespace floe::sql
