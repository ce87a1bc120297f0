#include "floe/sql/statements/view_statements.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <set>
#include <utility>

#include "floe/sql/plan/query_planner.h"
#include "floe/sql/scalar/like.h"
#include "floe/sql/statements/catalog_statements.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/syntax/parser.h"
#include "floe/sql/syntax/printer.h"
#include "floe/util/strings.h"

namespace floe::sql {
namespace {

// `cat`.`db`.`v`, as Flink names objects in its messages.
std::string QuotedName(const ResolvedName& name) {
  std::string out = QuoteIdentifier(name.catalog);
  for (const std::string& level : name.ns.levels) {
    fmt::format_to(std::back_inserter(out), ".{}", QuoteIdentifier(level));
  }
  fmt::format_to(std::back_inserter(out), ".{}", QuoteIdentifier(name.table));
  return out;
}

Result<ResolvedName> ResolveView(Session& session, const ObjectName& written) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveTable(written));
  if (!name.metadata.empty()) {
    return InvalidArgument("{}: a view name cannot name a metadata table", PrintName(written));
  }
  return name;
}

// The database part of `name`, as ShowTables and RequireDatabase take it.
ResolvedName DatabaseOf(const ResolvedName& name) {
  ResolvedName database = name;
  database.table.clear();
  return database;
}

// Whether a table (not a view) of that name exists.
Result<bool> TableExists(Session& session, const ResolvedName& name) {
  if (name.in_default_catalog()) return session.connector_tables().contains(ConnectorKey(name));
  FLOE_ASSIGN_OR_RETURN(auto catalog, session.IcebergCatalog(name));
  return catalog->TableExists(name.ident());
}

}  // namespace

Result<bool> ShowLikeMatches(const std::optional<ShowLike>& like, std::string_view name) {
  if (!like) return true;
  std::string value(name);
  std::string pattern = like->pattern;
  if (like->ignore_case) {
    value = AsciiLower(value);
    pattern = AsciiLower(pattern);
  }
  FLOE_ASSIGN_OR_RETURN(bool matches, scalar::MatchesLike(value, pattern));
  return matches != like->negated;
}

Result<StatementResult> Execute(Session& session, const CreateView& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolveView(session, statement.name));
  if (!statement.temporary && !name.in_default_catalog()) {
    return Unsupported(
        "CREATE VIEW {}: catalog '{}' holds no views (floe writes no Iceberg views yet); CREATE "
        "TEMPORARY VIEW keeps one in the session",
        QuotedName(name), name.catalog);
  }
  FLOE_RETURN_IF_ERROR(RequireDatabase(session, DatabaseOf(name)));
  auto& views = session.views(statement.temporary);
  const std::string key = name.ToString();
  if (views.contains(key) ||
      (!statement.temporary && session.connector_tables().contains(ConnectorKey(name)))) {
    if (statement.if_not_exists) return StatementResult::Message(std::string(kStatementSucceeded));
    if (statement.temporary) {
      return AlreadyExists("Temporary table '{}' already exists", QuotedName(name));
    }
    return AlreadyExists("Table (or view) {}.{} already exists in Catalog {}.", name.ns.ToString(),
                         name.table, name.catalog);
  }
  // The view keeps its own tree, parsed from the text as written.
  FLOE_ASSIGN_OR_RETURN(Statement parsed, ParseStatement(statement.query_text));
  auto* query_statement = std::get_if<QueryStatement>(&parsed.body);
  if (query_statement == nullptr) {
    return InvalidArgument("CREATE VIEW {}: AS must be followed by a query", QuotedName(name));
  }
  std::shared_ptr<const Query> query = std::move(query_statement->query);
  FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, session.config().JobConfig());
  stream::StreamEnvironment env(std::move(config));
  FLOE_ASSIGN_OR_RETURN(PlannedQuery planned, PlanQuery(session, *query, env));
  const BatchSchema& schema = *planned.stream.schema();
  std::vector<std::string> columns;
  if (!statement.columns.empty()) {
    if (static_cast<int>(statement.columns.size()) != schema.num_fields()) {
      return InvalidArgument("CREATE VIEW {}: {} column names for the {} columns of its query",
                             QuotedName(name), statement.columns.size(), schema.num_fields());
    }
    columns = statement.columns;
  } else {
    for (const Field& field : schema.fields()) columns.push_back(field.name);
  }
  std::set<std::string> unique(columns.begin(), columns.end());
  if (unique.size() != columns.size()) {
    return InvalidArgument("CREATE VIEW {}: its columns {} repeat a name; give a column list",
                           QuotedName(name), fmt::format("{}", fmt::join(columns, ", ")));
  }
  views[key] = SessionView{.query = std::move(query),
                           .text = statement.query_text,
                           .columns = std::move(columns),
                           .comment = statement.comment,
                           .temporary = statement.temporary};
  return StatementResult::Message(std::string(kStatementSucceeded));
}

Result<StatementResult> Execute(Session& session, const DropView& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolveView(session, statement.name));
  const std::string key = name.ToString();
  if (!statement.temporary && session.views(true).contains(key)) {
    return InvalidArgument(
        "Temporary view with identifier '{}' exists. Drop it first before removing the permanent "
        "view.",
        QuotedName(name));
  }
  auto& views = session.views(statement.temporary);
  if (views.erase(key) == 0 && !statement.if_exists) {
    if (statement.temporary) {
      return NotFound("Temporary view with identifier '{}' doesn't exist.", QuotedName(name));
    }
    return NotFound("View with identifier '{}' doesn't exist.", QuotedName(name));
  }
  return StatementResult::Message(std::string(kStatementSucceeded));
}

std::vector<std::string> ViewNames(Session& session, const ResolvedName& database) {
  std::string prefix = fmt::format("{}.{}.", database.catalog, database.ns.ToString());
  std::set<std::string> names;
  for (bool temporary : {true, false}) {
    for (const auto& [key, view] : session.views(temporary)) {
      if (key.starts_with(prefix) && key.find('.', prefix.size()) == std::string::npos) {
        names.insert(key.substr(prefix.size()));
      }
    }
  }
  return {names.begin(), names.end()};
}

Result<StatementResult> Execute(Session& session, const ShowViews& statement) {
  ResolvedName database;
  if (statement.database.has_value()) {
    FLOE_ASSIGN_OR_RETURN(database, session.ResolveDatabase(*statement.database));
  } else {
    database.catalog = session.current_catalog();
    database.ns.levels.push_back(session.current_database());
  }
  FLOE_RETURN_IF_ERROR(RequireDatabase(session, database));
  std::vector<std::vector<std::string>> rows;
  for (std::string& view : ViewNames(session, database)) {
    FLOE_ASSIGN_OR_RETURN(bool keep, ShowLikeMatches(statement.like, view));
    if (keep) rows.push_back({std::move(view)});
  }
  return StatementResult::StringTable({"view name"}, rows);
}

Result<StatementResult> Execute(Session& session, const ShowCreateView& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolveView(session, statement.name));
  const SessionView* view = session.FindView(name);
  if (view == nullptr) {
    FLOE_ASSIGN_OR_RETURN(bool table, TableExists(session, name));
    if (table) {
      return InvalidArgument(
          "SHOW CREATE VIEW is only supported for views, but {} is a table. Please use SHOW "
          "CREATE TABLE instead.",
          QuotedName(name));
    }
    return NotFound("Could not execute SHOW CREATE VIEW. View with identifier {} does not exist.",
                    QuotedName(name));
  }
  // Flink's layout: the columns one a line, the comment, then the query (as written here, where
  // Flink prints its expanded form).
  std::string text =
      fmt::format("CREATE {}VIEW {} (\n", view->temporary ? "TEMPORARY " : "", QuotedName(name));
  for (size_t i = 0; i < view->columns.size(); ++i) {
    fmt::format_to(std::back_inserter(text), "  {}{}\n", QuoteIdentifier(view->columns[i]),
                   i + 1 < view->columns.size() ? "," : "");
  }
  text += ")\n";
  if (view->comment)
    fmt::format_to(std::back_inserter(text), "COMMENT {}\n", QuoteString(*view->comment));
  fmt::format_to(std::back_inserter(text), "AS {}\n", view->text);
  return StatementResult::StringTable({"result"}, {{text}});
}

}  // namespace floe::sql
