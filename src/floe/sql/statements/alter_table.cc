// ALTER TABLE (table_statements.h): options, rename, column changes and partition evolution of
// Iceberg tables through the table layer's updates; options and rename of connector tables.

#include <algorithm>
#include <charconv>

#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/sql/statements/types_internal.h"
#include "floe/sql/syntax/printer.h"
#include "floe/table/update/update_properties.h"
#include "floe/table/update/update_schema.h"
#include "floe/table/update/update_spec.h"

namespace floe::sql {
namespace {

using Action = AlterTable::Action;

StatementResult Succeeded() { return StatementResult::Message(std::string(kStatementSucceeded)); }

// 'format-version' is not a stored property: setting it upgrades the table (never downgrades).
class UpgradeFormat final : public table::PendingUpdate {
 public:
  UpgradeFormat(table::Table& table, int version) : PendingUpdate(table), version_(version) {}
  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override {
    if (version_ < base.format_version()) {
      return InvalidArgument("'format-version' cannot go down from {} to {}", base.format_version(),
                             version_);
    }
    if (version_ == base.format_version()) return std::vector<catalog::TableUpdate>{};
    return std::vector<catalog::TableUpdate>{catalog::UpgradeFormatVersion{version_}};
  }

 private:
  int version_;
};

Status SetOptions(table::Table& table, const Options& options) {
  FLOE_ASSIGN_OR_RETURN(StringMap updates, ToStringMap(options, "table"));
  std::optional<int> version;
  auto update = table.NewUpdateProperties();
  for (const auto& [key, value] : updates) {
    if (key == "format-version") {
      int parsed = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
      if (ec != std::errc() || end != value.data() + value.size()) {
        return InvalidArgument("'format-version' must be a number, not '{}'", value);
      }
      version = parsed;
    } else if (key == "location" || key == "connector") {
      return InvalidArgument("option '{}' cannot be changed with ALTER TABLE ... SET", key);
    } else {
      update->Set(key, value);
    }
  }
  if (version.has_value()) FLOE_RETURN_IF_ERROR(UpgradeFormat(table, *version).Commit());
  return update->Commit();
}

Status ResetOptions(table::Table& table, const std::vector<std::string>& keys) {
  auto update = table.NewUpdateProperties();
  for (const std::string& key : keys) update->Remove(key);
  return update->Commit();
}

// The Iceberg type of an ALTER TABLE column; ids are assigned again by the schema update.
Result<TypePtr> ColumnType(const ColumnDef& column) {
  int32_t next_id = 1;
  auto type = ToIcebergType(column.type, &next_id);
  if (!type) {
    return std::unexpected(
        std::move(type.error()).AddContext(fmt::format("column '{}'", column.name)));
  }
  return type;
}

// Nested types are compared as Flink types: their written field ids are provisional.
Result<bool> SameType(const Type& existing, const Type& wanted) {
  if (!existing.is_nested() || !wanted.is_nested()) return existing == wanted;
  FLOE_ASSIGN_OR_RETURN(SqlType a, ToFlinkType(existing));
  FLOE_ASSIGN_OR_RETURN(SqlType b, ToFlinkType(wanted));
  return PrintType(a) == PrintType(b);
}

void Position(SchemaUpdate& update, const std::string& name, const ColumnPosition& position) {
  if (position.kind == ColumnPosition::Kind::kFirst) update.MoveFirst(name);
  if (position.kind == ColumnPosition::Kind::kAfter) update.MoveAfter(name, position.after);
}

Status AddColumns(table::Table& table, const AlterTable& statement) {
  auto update = table.NewUpdateSchema();
  for (const AlterColumn& column : statement.columns) {
    FLOE_ASSIGN_OR_RETURN(TypePtr type, ColumnType(column.column));
    std::string doc = column.column.comment.value_or("");
    update->Edit([&column, type, doc](SchemaUpdate& u) {
      if (column.column.type.not_null) {
        u.AddRequiredColumn("", column.column.name, type, std::nullopt, doc);
      } else {
        u.AddColumn("", column.column.name, type, doc);
      }
      Position(u, column.column.name, column.position);
    });
  }
  // A PRIMARY KEY in the column list (inline or not; the parser lists both) replaces the key.
  if (!statement.primary_key.empty()) {
    update->Edit([&statement](SchemaUpdate& u) { u.SetIdentifierFields(statement.primary_key); });
  }
  return update->Commit();
}

Status ModifyColumns(table::Table& table, const AlterTable& statement) {
  SchemaPtr schema = table.metadata()->current_schema();
  auto update = table.NewUpdateSchema();
  for (const AlterColumn& column : statement.columns) {
    const std::string& name = column.column.name;
    const NestedField* field = schema->FindField(name);
    if (field == nullptr) {
      return NotFound("column '{}' does not exist", name);
    }
    FLOE_ASSIGN_OR_RETURN(TypePtr type, ColumnType(column.column));
    FLOE_ASSIGN_OR_RETURN(bool same_type, SameType(*field->type, *type));
    if (!same_type && (!type->is_primitive() || !field->type->is_primitive())) {
      return InvalidArgument("column '{}': a {} cannot become a {} (only primitive types widen)",
                             name, field->type->ToString(), type->ToString());
    }
    bool not_null = column.column.type.not_null;
    std::optional<std::string> doc = column.column.comment;
    update->Edit([&column, &name, type, same_type, not_null, required = field->required,
                  doc](SchemaUpdate& u) {
      if (!same_type) u.UpdateColumnType(name, type);
      if (not_null && !required) u.RequireColumn(name);
      if (!not_null && required) u.MakeOptional(name);
      if (doc.has_value()) u.UpdateDoc(name, *doc);
      Position(u, name, column.position);
    });
  }
  // A PRIMARY KEY in the column list (inline or not; the parser lists both) replaces the key.
  if (!statement.primary_key.empty()) {
    update->Edit([&statement](SchemaUpdate& u) { u.SetIdentifierFields(statement.primary_key); });
  }
  return update->Commit();
}

// The name of the spec field a PARTITION FIELD clause means: the field with that source column
// and transform, or (for a bare name) the field with that name.
Result<std::string> FindPartitionField(const table::Table& table, const PartitionField& item) {
  TableMetadataPtr metadata = table.metadata();
  const Schema& schema = *metadata->current_schema();
  FLOE_ASSIGN_OR_RETURN(Transform transform, ToTransform(item));
  const NestedField* column = schema.FindField(item.column);
  for (const floe::PartitionField& field : metadata->default_spec()->fields()) {
    if (column != nullptr && field.source_id() == column->id && field.transform == transform) {
      return field.name;
    }
  }
  if (item.transform.empty()) {
    for (const floe::PartitionField& field : metadata->default_spec()->fields()) {
      if (field.name == item.column && !field.transform.is_void()) return field.name;
    }
  }
  std::string written =
      item.transform.empty() ? item.column : fmt::format("{}({})", item.transform, item.column);
  return NotFound("the table has no partition field {}", written);
}

Status ChangePartitioning(table::Table& table, const AlterTable& statement) {
  auto update = table.NewUpdateSpec();
  if (statement.action != Action::kAddPartitionField) {
    FLOE_ASSIGN_OR_RETURN(std::string old_name,
                          FindPartitionField(table, statement.partition_field));
    update->RemoveField(old_name);
  }
  if (statement.action != Action::kDropPartitionField) {
    const PartitionField& added = statement.action == Action::kAddPartitionField
                                      ? statement.partition_field
                                      : statement.new_partition_field;
    FLOE_ASSIGN_OR_RETURN(Transform transform, ToTransform(added));
    update->AddField(added.column, transform, statement.partition_alias.value_or(""));
  }
  return update->Commit();
}

Result<StatementResult> AlterConnectorTable(Session& session, const ResolvedName& name,
                                            const AlterTable& statement) {
  FLOE_ASSIGN_OR_RETURN(ConnectorTable * table, FindConnectorTable(session, name));
  switch (statement.action) {
    case Action::kSetOptions:
      for (const auto& [key, value] : statement.options) {
        auto it =
            std::ranges::find(table->options, key, &std::pair<std::string, std::string>::first);
        if (it != table->options.end()) {
          it->second = value;
        } else {
          table->options.emplace_back(key, value);
        }
      }
      return Succeeded();
    case Action::kResetOptions:
      for (const std::string& key : statement.keys) {
        if (key == "connector") return InvalidArgument("option 'connector' cannot be reset");
        std::erase_if(table->options, [&](const auto& option) { return option.first == key; });
      }
      return Succeeded();
    case Action::kRenameTable: {
      FLOE_ASSIGN_OR_RETURN(ResolvedName to, ResolvePlainTable(session, statement.new_name));
      if (to.catalog != name.catalog) {
        return InvalidArgument("a table cannot be renamed into another catalog ('{}' to '{}')",
                               name.ToString(), to.ToString());
      }
      if (session.connector_tables().contains(ConnectorKey(to))) {
        return AlreadyExists("table '{}' already exists", to.ToString());
      }
      ConnectorTable moved = std::move(*table);
      session.connector_tables().erase(ConnectorKey(name));
      session.connector_tables().emplace(ConnectorKey(to), std::move(moved));
      return Succeeded();
    }
    default:
      return Unsupported(
          "connector table '{}': only SET, RESET and RENAME TO apply; drop and create it again "
          "to change its columns",
          name.ToString());
  }
}

}  // namespace

Result<StatementResult> Execute(Session& session, const AlterTable& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolvePlainTable(session, statement.name));
  if (name.in_default_catalog()) {
    if (statement.if_exists && !session.connector_tables().contains(ConnectorKey(name))) {
      return Succeeded();
    }
    return AlterConnectorTable(session, name, statement);
  }
  auto loaded = LoadIcebergTable(session, name);
  if (!loaded && loaded.error().kind() == ErrorKind::kNotFound && statement.if_exists) {
    return Succeeded();
  }
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table, std::move(loaded));
  Status done;
  switch (statement.action) {
    case Action::kSetOptions:
      done = SetOptions(*table, statement.options);
      break;
    case Action::kResetOptions:
      done = ResetOptions(*table, statement.keys);
      break;
    case Action::kRenameTable: {
      FLOE_ASSIGN_OR_RETURN(ResolvedName to, ResolvePlainTable(session, statement.new_name));
      if (to.catalog != name.catalog) {
        return InvalidArgument("a table cannot be renamed into another catalog ('{}' to '{}')",
                               name.ToString(), to.ToString());
      }
      done = table->catalog().RenameTable(name.ident(), to.ident());
      break;
    }
    case Action::kAddColumns:
      done = AddColumns(*table, statement);
      break;
    case Action::kModifyColumns:
      done = ModifyColumns(*table, statement);
      break;
    case Action::kRenameColumn:
      done =
          table->NewUpdateSchema()->RenameColumn(statement.column, statement.new_column).Commit();
      break;
    case Action::kDropColumns: {
      auto update = table->NewUpdateSchema();
      for (const std::string& column : statement.dropped) update->DeleteColumn(column);
      done = update->Commit();
      break;
    }
    case Action::kAddPartitionField:
    case Action::kDropPartitionField:
    case Action::kReplacePartitionField:
      done = ChangePartitioning(*table, statement);
      break;
  }
  if (!done) {
    return std::unexpected(
        std::move(done.error()).AddContext(fmt::format("ALTER TABLE '{}'", name.ToString())));
  }
  return Succeeded();
}

}  // namespace floe::sql
