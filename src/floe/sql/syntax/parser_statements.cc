// Statements: CREATE/DROP/ALTER/USE/SHOW/DESCRIBE, SET and RESET, INSERT, CALL, EXPLAIN.
// Part of the parser (parser_internal.h).

#include <fmt/format.h>

#include "floe/sql/syntax/parser_internal.h"

namespace floe::sql::parser_internal {
namespace {

// Transform names of PARTITIONED BY, singular spellings folded onto the plural ones.
std::optional<std::string> CanonicalTransform(std::string_view name) {
  std::string lower = AsciiLower(name);
  if (lower == "bucket" || lower == "truncate" || lower == "years" || lower == "months" ||
      lower == "days" || lower == "hours") {
    return lower;
  }
  if (lower == "year" || lower == "month" || lower == "day" || lower == "hour") return lower + "s";
  return std::nullopt;
}

}  // namespace

Result<Statement> Parser::ParseStatement() {
  Statement statement;
  statement.position = Peek().position;
  FLOE_ASSIGN_OR_RETURN(statement.body, ParseBody());
  return statement;
}

Result<StatementBody> Parser::ParseBody() {
  if (AcceptKeyword("CREATE")) return ParseCreate();
  if (AcceptKeyword("DROP")) return ParseDrop();
  if (AcceptKeyword("ALTER")) return ParseAlter();
  if (AcceptKeyword("USE")) return ParseUse();
  if (AcceptKeyword("SHOW")) return ParseShow();
  if (AcceptKeyword("DESCRIBE") || AcceptKeyword("DESC")) {
    DescribeTable describe;
    describe.extended = AcceptKeyword("EXTENDED");
    FLOE_ASSIGN_OR_RETURN(describe.name, ParseObjectName("table name"));
    return describe;
  }
  if (AcceptKeyword("SET")) return ParseSet();
  if (AcceptKeyword("RESET")) return ParseReset();
  if (AcceptKeyword("INSERT")) return ParseInsert();
  if (PeekKeyword("SELECT") || PeekKeyword("VALUES") || PeekKeyword("WITH") || PeekSymbol("(")) {
    FLOE_ASSIGN_OR_RETURN(QueryPtr query, ParseQuery());
    return QueryStatement{std::move(query)};
  }
  if (AcceptKeyword("CALL")) return ParseCall();
  if (AcceptKeyword("EXPLAIN")) {
    if (AcceptKeyword("PLAN")) FLOE_RETURN_IF_ERROR(ExpectKeyword("FOR", "after EXPLAIN PLAN"));
    if (PeekKeyword("EXPLAIN")) return ErrorAt(Peek(), "EXPLAIN cannot explain an EXPLAIN");
    FLOE_ASSIGN_OR_RETURN(Statement inner, ParseStatement());
    return Explain{std::make_unique<Statement>(std::move(inner))};
  }
  if (AcceptKeyword("STOP")) {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("JOB", "after STOP"));
    StopJob stop;
    FLOE_ASSIGN_OR_RETURN(stop.id, ParseString("job id string", "after STOP JOB"));
    while (AcceptKeyword("WITH")) {
      if (AcceptKeyword("SAVEPOINT")) {
        stop.with_savepoint = true;
      } else if (AcceptKeyword("DRAIN")) {
        stop.with_drain = true;
      } else {
        return Expected("SAVEPOINT or DRAIN", "after WITH");
      }
    }
    return stop;
  }
  if (AcceptKeyword("HELP")) return Help{};
  if (AcceptKeyword("QUIT") || AcceptKeyword("EXIT")) return Quit{};
  return Expected("a statement",
                  "(CREATE, DROP, ALTER, USE, SHOW, DESCRIBE, SET, RESET, INSERT, "
                  "SELECT, VALUES, CALL, EXPLAIN, STOP JOB, HELP, QUIT)");
}

Result<StatementBody> Parser::ParseCreate() {
  if (AcceptKeyword("CATALOG")) {
    CreateCatalog create;
    create.if_not_exists = AcceptIfNotExists();
    FLOE_ASSIGN_OR_RETURN(create.name, ParseIdentifier("catalog name"));
    FLOE_RETURN_IF_ERROR(ExpectKeyword("WITH", "after catalog name"));
    FLOE_ASSIGN_OR_RETURN(create.options, ParseOptions("catalog options"));
    return create;
  }
  if (AcceptKeyword("DATABASE")) {
    CreateDatabase create;
    create.if_not_exists = AcceptIfNotExists();
    FLOE_ASSIGN_OR_RETURN(create.name, ParseObjectName("database name"));
    if (AcceptKeyword("COMMENT")) {
      FLOE_ASSIGN_OR_RETURN(create.comment, ParseString("comment string", "after COMMENT"));
    }
    if (AcceptKeyword("WITH")) {
      FLOE_ASSIGN_OR_RETURN(create.options, ParseOptions("database options"));
    }
    return create;
  }
  if (AcceptKeyword("TABLE")) return ParseCreateTable();
  if (AcceptKeyword("VIEW")) return ParseCreateView(false);
  if (AcceptKeywords({"TEMPORARY", "VIEW"})) return ParseCreateView(true);
  return Expected("CATALOG, DATABASE, TABLE or [TEMPORARY] VIEW", "after CREATE");
}

Result<StatementBody> Parser::ParseCreateView(bool temporary) {
  CreateView create{.temporary = temporary};
  create.if_not_exists = AcceptIfNotExists();
  FLOE_ASSIGN_OR_RETURN(create.name, ParseObjectName("view name"));
  if (PeekSymbol("(")) {
    FLOE_ASSIGN_OR_RETURN(create.columns, ParseNameList("column name", "view column list"));
  }
  if (AcceptKeyword("COMMENT")) {
    FLOE_ASSIGN_OR_RETURN(create.comment, ParseString("comment string", "after COMMENT"));
  }
  FLOE_RETURN_IF_ERROR(ExpectKeyword("AS", "after the view name"));
  std::size_t first = pos_;
  FLOE_ASSIGN_OR_RETURN(create.query, ParseQuery());
  create.query_text = RawText(first, pos_);
  return create;
}

// [NOT] LIKE | ILIKE 'pattern' after SHOW TABLES and friends.
Result<std::optional<ShowLike>> Parser::ParseShowLike() {
  ShowLike like;
  like.negated = AcceptKeyword("NOT");
  if (AcceptKeyword("ILIKE")) {
    like.ignore_case = true;
  } else if (!AcceptKeyword("LIKE")) {
    if (like.negated) return Expected("LIKE or ILIKE", "after NOT");
    return std::optional<ShowLike>();
  }
  FLOE_ASSIGN_OR_RETURN(like.pattern, ParseString("pattern string", "after LIKE"));
  return std::optional<ShowLike>(std::move(like));
}

Result<StatementBody> Parser::ParseCreateTable() {
  CreateTable create;
  const Token& start = Peek();
  create.if_not_exists = AcceptIfNotExists();
  FLOE_ASSIGN_OR_RETURN(create.name, ParseObjectName("table name"));
  bool has_columns = false;
  if (AcceptSymbol("(")) {
    has_columns = true;
    do {
      FLOE_RETURN_IF_ERROR(ParseTableElement(create));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after column list"));
  }
  if (AcceptKeyword("COMMENT")) {
    FLOE_ASSIGN_OR_RETURN(create.comment, ParseString("comment string", "after COMMENT"));
  }
  if (AcceptKeyword("PARTITIONED")) {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("BY", "after PARTITIONED"));
    FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after PARTITIONED BY"));
    do {
      FLOE_ASSIGN_OR_RETURN(PartitionField field, ParsePartitionField());
      create.partitioned_by.push_back(std::move(field));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after partition fields"));
  }
  if (AcceptKeyword("WITH")) {
    FLOE_ASSIGN_OR_RETURN(create.options, ParseOptions("table options"));
  }
  if (AcceptKeyword("LIKE")) {
    LikeClause like;
    FLOE_ASSIGN_OR_RETURN(like.source, ParseObjectName("source table name"));
    if (AcceptSymbol("(")) {
      do {
        const Token& mode = Peek();
        if (!IsKeyword(mode, "INCLUDING") && !IsKeyword(mode, "EXCLUDING") &&
            !IsKeyword(mode, "OVERWRITING")) {
          return Expected("INCLUDING, EXCLUDING or OVERWRITING", "in LIKE options");
        }
        Next();
        const Token& what = Peek();
        static constexpr std::string_view kWhat[] = {
            "ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS"};
        if (what.kind != TokenKind::kIdentifier ||
            std::ranges::none_of(kWhat, [&](std::string_view w) { return IsKeyword(what, w); })) {
          return Expected(
              "ALL, CONSTRAINTS, GENERATED, METADATA, OPTIONS, PARTITIONS or WATERMARKS",
              fmt::format("after {}", mode.text));
        }
        Next();
        like.options.emplace_back(AsciiUpper(mode.text), AsciiUpper(what.text));
        // Flink separates LIKE options with white space; commas are accepted too.
      } while (AcceptSymbol(",") || PeekKeyword("INCLUDING") || PeekKeyword("EXCLUDING") ||
               PeekKeyword("OVERWRITING"));
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after LIKE options"));
    }
    create.like = std::move(like);
  }
  if (AcceptKeyword("AS")) {
    FLOE_ASSIGN_OR_RETURN(create.as_query, ParseQuery());
  }
  if (!has_columns && !create.like && !create.as_query) {
    if (Peek().kind != TokenKind::kEnd && !PeekSymbol(";")) {
      return Expected("'(', LIKE or AS", "after table name");
    }
    return ErrorAt(start, "CREATE TABLE needs a column list, LIKE or AS SELECT");
  }
  return create;
}

Status Parser::ParsePrimaryKey(std::vector<std::string>& primary_key) {
  const Token& start = Peek();
  FLOE_RETURN_IF_ERROR(ExpectKeyword("KEY", "after PRIMARY"));
  if (!primary_key.empty()) return ErrorAt(start, "more than one PRIMARY KEY");
  FLOE_ASSIGN_OR_RETURN(primary_key, ParseNameList("key column name", "primary key columns"));
  return ExpectNotEnforced();
}

Status Parser::ExpectNotEnforced() {
  if (AcceptKeywords({"NOT", "ENFORCED"})) return Ok();
  return Expected("NOT ENFORCED", "after PRIMARY KEY (Flink does not enforce keys)");
}

Status Parser::ParseTableElement(CreateTable& create) {
  if (AcceptKeyword("CONSTRAINT")) {
    FLOE_RETURN_IF_ERROR(ParseIdentifier("constraint name"));
    FLOE_RETURN_IF_ERROR(ExpectKeyword("PRIMARY", "after constraint name"));
    return ParsePrimaryKey(create.primary_key);
  }
  if (PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
    Next();
    return ParsePrimaryKey(create.primary_key);
  }
  if (PeekKeyword("WATERMARK") && PeekKeyword("FOR", 1)) {
    const Token& start = Peek();
    if (create.watermark) return ErrorAt(start, "more than one WATERMARK");
    pos_ += 2;
    WatermarkDef watermark{.position = start.position};
    FLOE_ASSIGN_OR_RETURN(watermark.column, ParseIdentifier("time attribute column"));
    FLOE_RETURN_IF_ERROR(ExpectKeyword("AS", "after WATERMARK FOR column"));
    FLOE_ASSIGN_OR_RETURN(watermark.strategy, ParseExpr());
    create.watermark = std::move(watermark);
    return Ok();
  }
  FLOE_ASSIGN_OR_RETURN(ColumnDef column, ParseColumn(true));
  if (column.primary_key) {
    if (!create.primary_key.empty()) {
      return InvalidArgument("{}", AtPosition(Peek().position, "more than one PRIMARY KEY"));
    }
    create.primary_key.push_back(column.name);
  }
  create.columns.push_back(std::move(column));
  return Ok();
}

Result<ColumnDef> Parser::ParseColumn(bool metadata) {
  ColumnDef column;
  FLOE_ASSIGN_OR_RETURN(column.name, ParseIdentifier("column name"));
  if (PeekKeyword("AS")) {
    return Unsupported("{}",
                       AtPosition(Peek().position,
                                  "computed columns are not supported by floe's Iceberg tables"));
  }
  FLOE_ASSIGN_OR_RETURN(column.type, ParseType());
  while (true) {
    if (PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
      pos_ += 2;
      FLOE_RETURN_IF_ERROR(ExpectNotEnforced());
      column.primary_key = true;
    } else if (AcceptKeyword("UNIQUE")) {
      column.unique = true;
    } else if (!column.comment && AcceptKeyword("COMMENT")) {
      FLOE_ASSIGN_OR_RETURN(column.comment, ParseString("comment string", "after COMMENT"));
    } else if (metadata && !column.metadata && AcceptKeyword("METADATA")) {
      column.metadata = column.name;
      if (AcceptKeyword("FROM")) {
        FLOE_ASSIGN_OR_RETURN(column.metadata, ParseString("metadata key", "after METADATA FROM"));
        column.metadata_from = true;
      }
      column.is_virtual = AcceptKeyword("VIRTUAL");
    } else if (PeekKeyword("METADATA")) {
      return Unsupported("{}", AtPosition(Peek().position,
                                          "metadata columns are not supported in Iceberg tables"));
    } else {
      return column;
    }
  }
}

Result<PartitionField> Parser::ParsePartitionField() {
  PartitionField field;
  const Token& start = Peek();
  FLOE_ASSIGN_OR_RETURN(std::string name, ParseIdentifier("partition column or transform"));
  if (!AcceptSymbol("(")) {
    field.column = std::move(name);
    return field;
  }
  std::optional<std::string> transform = CanonicalTransform(name);
  if (!transform || start.kind == TokenKind::kQuotedIdentifier) {
    return ErrorAt(start, fmt::format("unknown partition transform '{}' (expected bucket, "
                                      "truncate, years, months, days or hours)",
                                      name));
  }
  field.transform = *transform;
  if (field.transform == "bucket" || field.transform == "truncate") {
    std::string what = field.transform == "bucket" ? "bucket count" : "truncate width";
    FLOE_ASSIGN_OR_RETURN(int64_t argument,
                          ParseInteger(what, fmt::format("in {}(", field.transform)));
    if (argument <= 0 || argument > INT32_MAX) {
      return ErrorAt(start,
                     fmt::format("{} must be between 1 and {}, got {}", what, INT32_MAX, argument));
    }
    field.argument = argument;
    FLOE_RETURN_IF_ERROR(ExpectSymbol(",", fmt::format("after {}", what)));
  }
  FLOE_ASSIGN_OR_RETURN(field.column, ParseIdentifier("column name"));
  FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("to close {}(", field.transform)));
  return field;
}

Result<StatementBody> Parser::ParseDrop() {
  if (AcceptKeyword("CATALOG")) {
    DropCatalog drop;
    drop.if_exists = AcceptIfExists();
    FLOE_ASSIGN_OR_RETURN(drop.name, ParseIdentifier("catalog name"));
    return drop;
  }
  if (AcceptKeyword("DATABASE")) {
    DropDatabase drop;
    drop.if_exists = AcceptIfExists();
    FLOE_ASSIGN_OR_RETURN(drop.name, ParseObjectName("database name"));
    if (AcceptKeyword("RESTRICT")) {
      drop.behavior = DropBehavior::kRestrict;
    } else if (AcceptKeyword("CASCADE")) {
      drop.behavior = DropBehavior::kCascade;
    }
    return drop;
  }
  if (AcceptKeyword("TABLE")) {
    DropTable drop;
    drop.if_exists = AcceptIfExists();
    FLOE_ASSIGN_OR_RETURN(drop.name, ParseObjectName("table name"));
    return drop;
  }
  bool temporary = AcceptKeyword("TEMPORARY");
  if (AcceptKeyword("VIEW")) {
    DropView drop{.temporary = temporary};
    drop.if_exists = AcceptIfExists();
    FLOE_ASSIGN_OR_RETURN(drop.name, ParseObjectName("view name"));
    return drop;
  }
  if (temporary) return Expected("VIEW", "after DROP TEMPORARY");
  return Expected("CATALOG, DATABASE, TABLE or [TEMPORARY] VIEW", "after DROP");
}

Result<StatementBody> Parser::ParseAlter() {
  if (AcceptKeyword("DATABASE")) {
    AlterDatabase alter;
    FLOE_ASSIGN_OR_RETURN(alter.name, ParseObjectName("database name"));
    FLOE_RETURN_IF_ERROR(ExpectKeyword("SET", "after database name"));
    FLOE_ASSIGN_OR_RETURN(alter.options, ParseOptions("database options"));
    return alter;
  }
  FLOE_RETURN_IF_ERROR(ExpectKeyword("TABLE", "after ALTER (or DATABASE)"));
  AlterTable alter;
  alter.if_exists = AcceptIfExists();
  FLOE_ASSIGN_OR_RETURN(alter.name, ParseObjectName("table name"));
  using Action = AlterTable::Action;
  if (AcceptKeyword("SET")) {
    alter.action = Action::kSetOptions;
    FLOE_ASSIGN_OR_RETURN(alter.options, ParseOptions("table options"));
  } else if (AcceptKeyword("RESET")) {
    alter.action = Action::kResetOptions;
    FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after RESET"));
    do {
      FLOE_ASSIGN_OR_RETURN(std::string key, ParseString("option key string", "in RESET"));
      alter.keys.push_back(std::move(key));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after option keys"));
  } else if (AcceptKeyword("RENAME")) {
    if (AcceptKeyword("TO")) {
      alter.action = Action::kRenameTable;
      FLOE_ASSIGN_OR_RETURN(alter.new_name, ParseObjectName("new table name"));
    } else {
      alter.action = Action::kRenameColumn;
      FLOE_ASSIGN_OR_RETURN(alter.column, ParseIdentifier("TO or column name after RENAME"));
      FLOE_RETURN_IF_ERROR(ExpectKeyword("TO", "after column name"));
      FLOE_ASSIGN_OR_RETURN(alter.new_column, ParseIdentifier("new column name"));
    }
  } else if (AcceptKeywords({"ADD", "PARTITION", "FIELD"})) {
    alter.action = Action::kAddPartitionField;
    FLOE_ASSIGN_OR_RETURN(alter.partition_field, ParsePartitionField());
    FLOE_RETURN_IF_ERROR(ParsePartitionAlias(alter));
  } else if (AcceptKeywords({"DROP", "PARTITION", "FIELD"})) {
    alter.action = Action::kDropPartitionField;
    FLOE_ASSIGN_OR_RETURN(alter.partition_field, ParsePartitionField());
  } else if (AcceptKeywords({"REPLACE", "PARTITION", "FIELD"})) {
    alter.action = Action::kReplacePartitionField;
    FLOE_ASSIGN_OR_RETURN(alter.partition_field, ParsePartitionField());
    FLOE_RETURN_IF_ERROR(ExpectKeyword("WITH", "after the partition field to replace"));
    FLOE_ASSIGN_OR_RETURN(alter.new_partition_field, ParsePartitionField());
    FLOE_RETURN_IF_ERROR(ParsePartitionAlias(alter));
  } else if (AcceptKeyword("ADD")) {
    alter.action = Action::kAddColumns;
    FLOE_RETURN_IF_ERROR(ParseAlterColumns(alter));
  } else if (AcceptKeyword("MODIFY")) {
    alter.action = Action::kModifyColumns;
    FLOE_RETURN_IF_ERROR(ParseAlterColumns(alter));
  } else if (AcceptKeyword("DROP")) {
    alter.action = Action::kDropColumns;
    if (PeekSymbol("(")) {
      FLOE_ASSIGN_OR_RETURN(alter.dropped, ParseNameList("column name", "dropped columns"));
    } else {
      FLOE_ASSIGN_OR_RETURN(std::string column, ParseIdentifier("column name after DROP"));
      alter.dropped.push_back(std::move(column));
    }
  } else {
    return Expected("SET, RESET, RENAME, ADD, MODIFY, DROP or REPLACE", "after table name");
  }
  return alter;
}

Status Parser::ParsePartitionAlias(AlterTable& alter) {
  if (!AcceptKeyword("AS")) return Ok();
  FLOE_ASSIGN_OR_RETURN(alter.partition_alias, ParseIdentifier("partition field name"));
  return Ok();
}

Status Parser::ParseAlterColumns(AlterTable& alter) {
  bool list = AcceptSymbol("(");
  do {
    if (list && PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
      Next();
      FLOE_RETURN_IF_ERROR(ParsePrimaryKey(alter.primary_key));
      continue;
    }
    AlterColumn column;
    FLOE_ASSIGN_OR_RETURN(column.column, ParseColumn(false));
    if (column.column.primary_key) alter.primary_key.push_back(column.column.name);
    if (AcceptKeyword("FIRST")) {
      column.position.kind = ColumnPosition::Kind::kFirst;
    } else if (AcceptKeyword("AFTER")) {
      column.position.kind = ColumnPosition::Kind::kAfter;
      FLOE_ASSIGN_OR_RETURN(column.position.after, ParseIdentifier("column name after AFTER"));
    }
    alter.columns.push_back(std::move(column));
  } while (list && AcceptSymbol(","));
  if (list) FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after column list"));
  return Ok();
}

Result<StatementBody> Parser::ParseUse() {
  if (AcceptKeyword("CATALOG")) {
    UseCatalog use;
    FLOE_ASSIGN_OR_RETURN(use.name, ParseIdentifier("catalog name"));
    return use;
  }
  UseDatabase use;
  FLOE_ASSIGN_OR_RETURN(use.name, ParseObjectName("database name"));
  return use;
}

Result<StatementBody> Parser::ParseShow() {
  if (AcceptKeyword("CATALOGS")) return ShowCatalogs{};
  if (AcceptKeyword("DATABASES")) {
    ShowDatabases show;
    FLOE_ASSIGN_OR_RETURN(show.like, ParseShowLike());
    return show;
  }
  if (AcceptKeyword("JOBS")) return ShowJobs{};
  if (AcceptKeyword("CURRENT")) {
    if (AcceptKeyword("CATALOG")) return ShowCurrentCatalog{};
    if (AcceptKeyword("DATABASE")) return ShowCurrentDatabase{};
    return Expected("CATALOG or DATABASE", "after SHOW CURRENT");
  }
  if (AcceptKeyword("TABLES")) {
    ShowTables show;
    if (AcceptKeyword("FROM") || AcceptKeyword("IN")) {
      FLOE_ASSIGN_OR_RETURN(show.database, ParseObjectName("database name"));
    }
    FLOE_ASSIGN_OR_RETURN(show.like, ParseShowLike());
    return show;
  }
  if (AcceptKeyword("VIEWS")) {
    ShowViews show;
    if (AcceptKeyword("FROM") || AcceptKeyword("IN")) {
      FLOE_ASSIGN_OR_RETURN(show.database, ParseObjectName("database name"));
    }
    FLOE_ASSIGN_OR_RETURN(show.like, ParseShowLike());
    return show;
  }
  if (AcceptKeyword("CREATE")) {
    if (AcceptKeyword("VIEW")) {
      ShowCreateView show;
      FLOE_ASSIGN_OR_RETURN(show.name, ParseObjectName("view name"));
      return show;
    }
    FLOE_RETURN_IF_ERROR(ExpectKeyword("TABLE", "after SHOW CREATE"));
    ShowCreateTable show;
    FLOE_ASSIGN_OR_RETURN(show.name, ParseObjectName("table name"));
    return show;
  }
  return Expected("CATALOGS, CURRENT, DATABASES, TABLES, VIEWS, CREATE TABLE, CREATE VIEW or JOBS",
                  "after SHOW");
}

std::string Parser::RawText(std::size_t first, std::size_t end) const {
  if (first >= end) return "";
  std::size_t begin = tokens_[first].offset;
  std::size_t stop = tokens_[end - 1].offset + tokens_[end - 1].length;
  return std::string(TrimWhitespace(source_.substr(begin, stop - begin)));
}

std::size_t Parser::StatementEnd() const {
  std::size_t end = pos_;
  while (tokens_[end].kind != TokenKind::kEnd &&
         !(tokens_[end].kind == TokenKind::kSymbol && tokens_[end].text == ";")) {
    ++end;
  }
  return end;
}

Result<StatementBody> Parser::ParseSet() {
  SetOption set;
  std::size_t end = StatementEnd();
  if (pos_ == end) return set;
  if (Peek().kind == TokenKind::kString) {
    set.key = Next().text;
    FLOE_RETURN_IF_ERROR(ExpectSymbol("=", fmt::format("after key '{}'", *set.key)));
    FLOE_ASSIGN_OR_RETURN(set.value,
                          ParseString("value string", fmt::format("for key '{}'", *set.key)));
    return set;
  }
  std::size_t equals = pos_;
  while (equals < end &&
         !(tokens_[equals].kind == TokenKind::kSymbol && tokens_[equals].text == "=")) {
    ++equals;
  }
  if (equals == end) return Expected("'key' = 'value'", "after SET");
  if (equals == pos_) return Expected("option key", "after SET");
  set.key = RawText(pos_, equals);
  if (equals + 2 == end && tokens_[equals + 1].kind == TokenKind::kString) {
    set.value = tokens_[equals + 1].text;
  } else {
    set.value = RawText(equals + 1, end);
  }
  if (set.value.empty()) {
    pos_ = end;
    return Expected("option value", fmt::format("for key '{}'", *set.key));
  }
  pos_ = end;
  return set;
}

Result<StatementBody> Parser::ParseReset() {
  ResetOption reset;
  std::size_t end = StatementEnd();
  if (pos_ == end) return reset;
  if (Peek().kind == TokenKind::kString) {
    reset.key = Next().text;
    return reset;
  }
  reset.key = RawText(pos_, end);
  pos_ = end;
  return reset;
}

Result<Options> Parser::ParseHint() {
  FLOE_RETURN_IF_ERROR(ExpectKeyword("OPTIONS", "in hint (floe knows the OPTIONS hint)"));
  FLOE_ASSIGN_OR_RETURN(Options options, ParseOptions("hint options"));
  while (AcceptSymbol(",")) {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("OPTIONS", "in hint (floe knows the OPTIONS hint)"));
    FLOE_ASSIGN_OR_RETURN(Options more, ParseOptions("hint options"));
    options.insert(options.end(), std::make_move_iterator(more.begin()),
                   std::make_move_iterator(more.end()));
  }
  if (Peek().kind != TokenKind::kHintEnd) return Expected("'*/'", "to close hint");
  Next();
  return options;
}

Result<StatementBody> Parser::ParseInsert() {
  Insert insert;
  if (AcceptKeyword("OVERWRITE")) {
    insert.overwrite = true;
  } else {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("INTO", "after INSERT (or OVERWRITE)"));
  }
  AcceptKeyword("TABLE");
  FLOE_ASSIGN_OR_RETURN(insert.table, ParseObjectName("table name"));
  if (Peek().kind == TokenKind::kHintStart) {
    Next();
    FLOE_ASSIGN_OR_RETURN(insert.hints, ParseHint());
  }
  if (AcceptKeyword("PARTITION")) {
    FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after PARTITION"));
    do {
      FLOE_ASSIGN_OR_RETURN(std::string column, ParseIdentifier("partition column name"));
      FLOE_RETURN_IF_ERROR(ExpectSymbol("=", fmt::format("after partition column '{}'", column)));
      FLOE_ASSIGN_OR_RETURN(ExprPtr value, ParseUnary());
      if (value->kind != ExprKind::kLiteral &&
          !(value->kind == ExprKind::kUnary && value->args[0]->kind == ExprKind::kLiteral)) {
        return InvalidArgument(
            "{}", AtPosition(
                      value->position,
                      fmt::format("the value of partition column '{}' must be a literal", column)));
      }
      insert.partition.emplace_back(std::move(column), std::move(value));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after partition values"));
  }
  if (PeekSymbol("(") && !PeekKeyword("SELECT", 1) && !PeekKeyword("VALUES", 1) &&
      !PeekKeyword("WITH", 1) && !PeekSymbol("(", 1)) {
    FLOE_ASSIGN_OR_RETURN(insert.columns, ParseNameList("column name", "target column list"));
  }
  if (!PeekKeyword("SELECT") && !PeekKeyword("VALUES") && !PeekKeyword("WITH") &&
      !PeekSymbol("(")) {
    return Expected("SELECT, VALUES or WITH", "after the target table");
  }
  FLOE_ASSIGN_OR_RETURN(insert.query, ParseQuery());
  return insert;
}

Result<StatementBody> Parser::ParseCall() {
  Call call;
  FLOE_ASSIGN_OR_RETURN(call.procedure, ParseObjectName("procedure name"));
  FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after procedure name"));
  if (!AcceptSymbol(")")) {
    do {
      CallArgument argument;
      if (PeekIdentifier() && PeekSymbol("=>", 1)) {
        argument.name = Next().text;
        Next();
      }
      FLOE_ASSIGN_OR_RETURN(argument.value, ParseExpr());
      call.arguments.push_back(std::move(argument));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after procedure arguments"));
  }
  return call;
}

}  // namespace floe::sql::parser_internal
