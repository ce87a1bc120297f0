#include "floe/sql/syntax/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

#include "floe/util/strings.h"

namespace floe::sql {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && AsciiLower(a) == AsciiLower(b);
}

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

class Parser {
 public:
  Parser(std::string_view source, std::vector<Token> tokens)
      : source_(source), tokens_(std::move(tokens)) {}

  Result<Statement> StatementToEnd() {
    FLOE_ASSIGN_OR_RETURN(Statement statement, ParseStatement());
    AcceptSymbol(";");
    FLOE_RETURN_IF_ERROR(ExpectEnd("end of statement"));
    return statement;
  }

  Result<DataType> TypeToEnd() {
    FLOE_ASSIGN_OR_RETURN(DataType type, ParseType());
    FLOE_RETURN_IF_ERROR(ExpectEnd("type"));
    return type;
  }

  Result<ExprPtr> ExprToEnd() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr expr, ParseExpr());
    FLOE_RETURN_IF_ERROR(ExpectEnd("expression"));
    return expr;
  }

 private:
  // ---- token helpers ----

  const Token& Peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& Next() {
    const Token& token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }

  static bool IsKeyword(const Token& token, std::string_view word) {
    return token.kind == TokenKind::kIdentifier && EqualsIgnoreCase(token.text, word);
  }
  bool PeekKeyword(std::string_view word, std::size_t ahead = 0) const {
    return IsKeyword(Peek(ahead), word);
  }
  bool AcceptKeyword(std::string_view word) {
    if (!PeekKeyword(word)) return false;
    Next();
    return true;
  }
  bool AcceptKeywords(std::initializer_list<std::string_view> words) {
    std::size_t i = 0;
    for (std::string_view word : words) {
      if (!PeekKeyword(word, i++)) return false;
    }
    pos_ += words.size();
    return true;
  }
  bool PeekSymbol(std::string_view symbol, std::size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kSymbol && Peek(ahead).text == symbol;
  }
  bool AcceptSymbol(std::string_view symbol) {
    if (!PeekSymbol(symbol)) return false;
    Next();
    return true;
  }

  std::string Found(const Token& token) const {
    // A statement of a script ends at its ';', which the split turned into the end token.
    if (token.kind == TokenKind::kEnd) return token.text == ";" ? "';'" : "end of input";
    std::string_view raw = source_.substr(token.offset, token.length);
    if (raw.size() > 40) return fmt::format("'{}...'", raw.substr(0, 40));
    return fmt::format("'{}'", raw);
  }

  std::unexpected<Error> ErrorAt(const Token& token, std::string_view message) const {
    return InvalidArgument("{}", AtPosition(token.position, message));
  }
  std::unexpected<Error> Expected(std::string_view what, std::string_view context) const {
    std::string separator = context.empty() ? "" : " ";
    return ErrorAt(
        Peek(), fmt::format("expected {}{}{}, found {}", what, separator, context, Found(Peek())));
  }

  Status ExpectKeyword(std::string_view word, std::string_view context) {
    if (AcceptKeyword(word)) return Ok();
    return Expected(word, context);
  }
  Status ExpectSymbol(std::string_view symbol, std::string_view context) {
    if (AcceptSymbol(symbol)) return Ok();
    return Expected(fmt::format("'{}'", symbol), context);
  }
  Status ExpectEnd(std::string_view context) {
    if (Peek().kind == TokenKind::kEnd) return Ok();
    return ErrorAt(Peek(), fmt::format("unexpected {} after {}", Found(Peek()), context));
  }

  // ---- names and literals ----

  bool PeekIdentifier(std::size_t ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kQuotedIdentifier ||
           (token.kind == TokenKind::kIdentifier && !IsReservedWord(token.text));
  }

  Result<std::string> ParseIdentifier(std::string_view what) {
    if (!PeekIdentifier()) return Expected(what, "");
    return Next().text;
  }

  Result<ObjectName> ParseObjectName(std::string_view what) {
    ObjectName name;
    do {
      if (!PeekIdentifier()) return Expected(what, "");
      name.parts.push_back(Next().text);
    } while (AcceptSymbol("."));
    return name;
  }

  Result<std::string> ParseString(std::string_view what, std::string_view context) {
    if (Peek().kind != TokenKind::kString) return Expected(what, context);
    return Next().text;
  }

  Result<int64_t> ParseInteger(std::string_view what, std::string_view context) {
    if (Peek().kind != TokenKind::kInteger) return Expected(what, context);
    const Token& token = Next();
    int64_t value = 0;
    auto [end, ec] =
        std::from_chars(token.text.data(), token.text.data() + token.text.size(), value);
    if (ec != std::errc() || end != token.text.data() + token.text.size()) {
      return ErrorAt(token, fmt::format("{} {} is out of range", what, token.text));
    }
    return value;
  }

  // ('k' = 'v', ...)
  Result<Options> ParseOptions(std::string_view context) {
    FLOE_RETURN_IF_ERROR(ExpectSymbol("(", fmt::format("to open {}", context)));
    Options options;
    do {
      FLOE_ASSIGN_OR_RETURN(std::string key,
                            ParseString("option key string", fmt::format("in {}", context)));
      FLOE_RETURN_IF_ERROR(ExpectSymbol("=", fmt::format("after option key '{}'", key)));
      FLOE_ASSIGN_OR_RETURN(std::string value, ParseString("option value string",
                                                           fmt::format("for option '{}'", key)));
      options.emplace_back(std::move(key), std::move(value));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("to close {}", context)));
    return options;
  }

  Result<std::vector<std::string>> ParseNameList(std::string_view what, std::string_view context) {
    FLOE_RETURN_IF_ERROR(ExpectSymbol("(", fmt::format("to open {}", context)));
    std::vector<std::string> names;
    do {
      FLOE_ASSIGN_OR_RETURN(std::string name, ParseIdentifier(what));
      names.push_back(std::move(name));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("after {}", context)));
    return names;
  }

  bool AcceptIfExists() { return AcceptKeywords({"IF", "EXISTS"}); }
  bool AcceptIfNotExists() { return AcceptKeywords({"IF", "NOT", "EXISTS"}); }

  // ---- statements ----

  Result<Statement> ParseStatement() {
    Statement statement;
    statement.position = Peek().position;
    FLOE_ASSIGN_OR_RETURN(statement.body, ParseBody());
    return statement;
  }

  Result<StatementBody> ParseBody() {
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
    if (PeekKeyword("SELECT") || PeekKeyword("VALUES") || PeekSymbol("(")) {
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

  Result<StatementBody> ParseCreate() {
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
    return Expected("CATALOG, DATABASE or TABLE", "after CREATE");
  }

  Result<StatementBody> ParseCreateTable() {
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

  Status ParsePrimaryKey(std::vector<std::string>& primary_key) {
    const Token& start = Peek();
    FLOE_RETURN_IF_ERROR(ExpectKeyword("KEY", "after PRIMARY"));
    if (!primary_key.empty()) return ErrorAt(start, "more than one PRIMARY KEY");
    FLOE_ASSIGN_OR_RETURN(primary_key, ParseNameList("key column name", "primary key columns"));
    return ExpectNotEnforced();
  }

  Status ExpectNotEnforced() {
    if (AcceptKeywords({"NOT", "ENFORCED"})) return Ok();
    return Expected("NOT ENFORCED", "after PRIMARY KEY (Flink does not enforce keys)");
  }

  // A column, or a table constraint, inside CREATE TABLE (...).
  Status ParseTableElement(CreateTable& create) {
    if (AcceptKeyword("CONSTRAINT")) {
      FLOE_RETURN_IF_ERROR(ParseIdentifier("constraint name"));
      FLOE_RETURN_IF_ERROR(ExpectKeyword("PRIMARY", "after constraint name"));
      return ParsePrimaryKey(create.primary_key);
    }
    if (PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
      Next();
      return ParsePrimaryKey(create.primary_key);
    }
    if (PeekKeyword("WATERMARK") && PeekIdentifier(1) && PeekKeyword("FOR", 2)) {
      return Unsupported(
          "{}", AtPosition(Peek().position, "watermarks are not supported in Iceberg tables"));
    }
    FLOE_ASSIGN_OR_RETURN(ColumnDef column, ParseColumn());
    if (column.primary_key) {
      if (!create.primary_key.empty()) {
        return InvalidArgument("{}", AtPosition(Peek().position, "more than one PRIMARY KEY"));
      }
      create.primary_key.push_back(column.name);
    }
    create.columns.push_back(std::move(column));
    return Ok();
  }

  Result<ColumnDef> ParseColumn() {
    ColumnDef column;
    FLOE_ASSIGN_OR_RETURN(column.name, ParseIdentifier("column name"));
    if (PeekKeyword("AS")) {
      return Unsupported("{}", AtPosition(Peek().position,
                                          "computed columns are not supported in Iceberg tables"));
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
      } else if (PeekKeyword("METADATA")) {
        return Unsupported(
            "{}",
            AtPosition(Peek().position, "metadata columns are not supported in Iceberg tables"));
      } else {
        return column;
      }
    }
  }

  Result<PartitionField> ParsePartitionField() {
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
        return ErrorAt(
            start, fmt::format("{} must be between 1 and {}, got {}", what, INT32_MAX, argument));
      }
      field.argument = argument;
      FLOE_RETURN_IF_ERROR(ExpectSymbol(",", fmt::format("after {}", what)));
    }
    FLOE_ASSIGN_OR_RETURN(field.column, ParseIdentifier("column name"));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("to close {}(", field.transform)));
    return field;
  }

  Result<StatementBody> ParseDrop() {
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
    return Expected("CATALOG, DATABASE or TABLE", "after DROP");
  }

  Result<StatementBody> ParseAlter() {
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

  Status ParsePartitionAlias(AlterTable& alter) {
    if (!AcceptKeyword("AS")) return Ok();
    FLOE_ASSIGN_OR_RETURN(alter.partition_alias, ParseIdentifier("partition field name"));
    return Ok();
  }

  // ADD/MODIFY: one column, or a parenthesised list of columns and a primary key.
  Status ParseAlterColumns(AlterTable& alter) {
    bool list = AcceptSymbol("(");
    do {
      if (list && PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
        Next();
        FLOE_RETURN_IF_ERROR(ParsePrimaryKey(alter.primary_key));
        continue;
      }
      AlterColumn column;
      FLOE_ASSIGN_OR_RETURN(column.column, ParseColumn());
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

  Result<StatementBody> ParseUse() {
    if (AcceptKeyword("CATALOG")) {
      UseCatalog use;
      FLOE_ASSIGN_OR_RETURN(use.name, ParseIdentifier("catalog name"));
      return use;
    }
    UseDatabase use;
    FLOE_ASSIGN_OR_RETURN(use.name, ParseObjectName("database name"));
    return use;
  }

  Result<StatementBody> ParseShow() {
    if (AcceptKeyword("CATALOGS")) return ShowCatalogs{};
    if (AcceptKeyword("DATABASES")) return ShowDatabases{};
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
      return show;
    }
    if (AcceptKeyword("CREATE")) {
      FLOE_RETURN_IF_ERROR(ExpectKeyword("TABLE", "after SHOW CREATE"));
      ShowCreateTable show;
      FLOE_ASSIGN_OR_RETURN(show.name, ParseObjectName("table name"));
      return show;
    }
    return Expected("CATALOGS, CURRENT, DATABASES, TABLES, CREATE TABLE or JOBS", "after SHOW");
  }

  // The source text from token `first` up to (not including) token `end`, trimmed.
  std::string RawText(std::size_t first, std::size_t end) const {
    if (first >= end) return "";
    std::size_t begin = tokens_[first].offset;
    std::size_t stop = tokens_[end - 1].offset + tokens_[end - 1].length;
    return std::string(TrimWhitespace(source_.substr(begin, stop - begin)));
  }

  std::size_t StatementEnd() const {
    std::size_t end = pos_;
    while (tokens_[end].kind != TokenKind::kEnd &&
           !(tokens_[end].kind == TokenKind::kSymbol && tokens_[end].text == ";")) {
      ++end;
    }
    return end;
  }

  // SET 'k' = 'v' or the legacy SET k = v whose key and value are the raw text around '='.
  Result<StatementBody> ParseSet() {
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

  Result<StatementBody> ParseReset() {
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

  Result<Options> ParseHint() {
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

  Result<StatementBody> ParseInsert() {
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
              "{}", AtPosition(value->position,
                               fmt::format("the value of partition column '{}' must be a literal",
                                           column)));
        }
        insert.partition.emplace_back(std::move(column), std::move(value));
      } while (AcceptSymbol(","));
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "after partition values"));
    }
    if (PeekSymbol("(") && !PeekKeyword("SELECT", 1) && !PeekKeyword("VALUES", 1) &&
        !PeekSymbol("(", 1)) {
      FLOE_ASSIGN_OR_RETURN(insert.columns, ParseNameList("column name", "target column list"));
    }
    if (!PeekKeyword("SELECT") && !PeekKeyword("VALUES") && !PeekSymbol("(")) {
      return Expected("SELECT or VALUES", "after the target table");
    }
    FLOE_ASSIGN_OR_RETURN(insert.query, ParseQuery());
    return insert;
  }

  Result<StatementBody> ParseCall() {
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

  // ---- queries ----

  Result<QueryPtr> ParseQuery() {
    if (++depth_ > kMaxDepth) {
      return ErrorAt(Peek(), fmt::format("query nested deeper than {} levels", kMaxDepth));
    }
    auto query = ParseQueryBody();
    --depth_;
    return query;
  }

  Result<QueryPtr> ParseQueryBody() {
    FLOE_ASSIGN_OR_RETURN(QueryPtr query, ParseQueryTerm());
    while (AcceptKeyword("UNION")) {
      auto set = std::make_unique<Query>();
      set->kind = Query::Kind::kUnion;
      set->all = AcceptKeyword("ALL");
      if (!set->all) AcceptKeyword("DISTINCT");
      set->left = std::move(query);
      FLOE_ASSIGN_OR_RETURN(set->right, ParseQueryTerm());
      query = std::move(set);
    }
    if (AcceptKeyword("ORDER")) {
      FLOE_RETURN_IF_ERROR(ExpectKeyword("BY", "after ORDER"));
      do {
        OrderItem item;
        FLOE_ASSIGN_OR_RETURN(item.expr, ParseExpr());
        if (AcceptKeyword("DESC")) {
          item.descending = true;
        } else {
          AcceptKeyword("ASC");
        }
        if (AcceptKeyword("NULLS")) {
          if (AcceptKeyword("FIRST")) {
            item.nulls_first = true;
          } else if (AcceptKeyword("LAST")) {
            item.nulls_first = false;
          } else {
            return Expected("FIRST or LAST", "after NULLS");
          }
        }
        query->order_by.push_back(std::move(item));
      } while (AcceptSymbol(","));
    }
    if (AcceptKeyword("LIMIT")) {
      FLOE_ASSIGN_OR_RETURN(query->limit, ParseUnary());
    }
    if (AcceptKeyword("OFFSET")) {
      FLOE_ASSIGN_OR_RETURN(query->offset, ParseUnary());
      AcceptKeyword("ROWS") || AcceptKeyword("ROW");
    }
    return query;
  }

  Result<QueryPtr> ParseQueryTerm() {
    if (AcceptSymbol("(")) {
      FLOE_ASSIGN_OR_RETURN(QueryPtr query, ParseQuery());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the parenthesised query"));
      return query;
    }
    auto query = std::make_unique<Query>();
    if (AcceptKeyword("VALUES")) {
      query->kind = Query::Kind::kValues;
      do {
        FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "to open a VALUES row"));
        std::vector<ExprPtr> row;
        do {
          FLOE_ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
          row.push_back(std::move(value));
        } while (AcceptSymbol(","));
        FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close a VALUES row"));
        query->rows.push_back(std::move(row));
      } while (AcceptSymbol(","));
      return query;
    }
    FLOE_RETURN_IF_ERROR(ExpectKeyword("SELECT", "to start a query"));
    query->kind = Query::Kind::kSelect;
    if (AcceptKeyword("DISTINCT")) {
      query->distinct = true;
    } else {
      AcceptKeyword("ALL");
    }
    do {
      SelectItem item;
      if (PeekSymbol("*")) {
        auto star = std::make_unique<Expr>();
        star->kind = ExprKind::kStar;
        star->position = Next().position;
        item.expr = std::move(star);
      } else {
        FLOE_ASSIGN_OR_RETURN(item.expr, ParseExpr());
        FLOE_ASSIGN_OR_RETURN(item.alias, ParseAlias());
      }
      query->items.push_back(std::move(item));
    } while (AcceptSymbol(","));
    if (AcceptKeyword("FROM")) {
      FLOE_ASSIGN_OR_RETURN(query->from, ParseFrom());
    }
    if (AcceptKeyword("WHERE")) {
      FLOE_ASSIGN_OR_RETURN(query->where, ParseExpr());
    }
    if (AcceptKeyword("GROUP")) {
      FLOE_RETURN_IF_ERROR(ExpectKeyword("BY", "after GROUP"));
      do {
        FLOE_ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
        query->group_by.push_back(std::move(key));
      } while (AcceptSymbol(","));
    }
    if (AcceptKeyword("HAVING")) {
      FLOE_ASSIGN_OR_RETURN(query->having, ParseExpr());
    }
    return query;
  }

  Result<std::optional<std::string>> ParseAlias() {
    if (AcceptKeyword("AS")) {
      FLOE_ASSIGN_OR_RETURN(std::string alias, ParseIdentifier("alias after AS"));
      return alias;
    }
    if (PeekIdentifier()) return std::optional<std::string>(Next().text);
    return std::optional<std::string>();
  }

  Result<TableRefPtr> ParseFrom() {
    FLOE_ASSIGN_OR_RETURN(TableRefPtr left, ParseTablePrimary());
    while (true) {
      JoinKind kind;
      if (AcceptSymbol(",")) {
        kind = JoinKind::kComma;
      } else if (AcceptKeywords({"CROSS", "JOIN"})) {
        kind = JoinKind::kCross;
      } else if (AcceptKeyword("JOIN") || AcceptKeywords({"INNER", "JOIN"})) {
        kind = JoinKind::kInner;
      } else if (AcceptKeyword("LEFT") || AcceptKeyword("RIGHT") || AcceptKeyword("FULL")) {
        const Token& side = tokens_[pos_ - 1];
        kind = IsKeyword(side, "LEFT")    ? JoinKind::kLeft
               : IsKeyword(side, "RIGHT") ? JoinKind::kRight
                                          : JoinKind::kFull;
        AcceptKeyword("OUTER");
        FLOE_RETURN_IF_ERROR(ExpectKeyword("JOIN", fmt::format("after {}", AsciiUpper(side.text))));
      } else {
        return left;
      }
      auto join = std::make_unique<TableRef>();
      join->kind = TableRef::Kind::kJoin;
      join->join = kind;
      join->left = std::move(left);
      FLOE_ASSIGN_OR_RETURN(join->right, ParseTablePrimary());
      if (kind != JoinKind::kComma && kind != JoinKind::kCross) {
        FLOE_RETURN_IF_ERROR(ExpectKeyword("ON", "after the joined table"));
        FLOE_ASSIGN_OR_RETURN(join->on, ParseExpr());
      }
      left = std::move(join);
    }
  }

  Result<TableRefPtr> ParseTablePrimary() {
    auto ref = std::make_unique<TableRef>();
    if (AcceptSymbol("(")) {
      ref->kind = TableRef::Kind::kSubquery;
      FLOE_ASSIGN_OR_RETURN(ref->query, ParseQuery());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the subquery"));
    } else {
      FLOE_ASSIGN_OR_RETURN(ref->name, ParseObjectName("table name"));
      if (Peek().kind == TokenKind::kHintStart) {
        Next();
        FLOE_ASSIGN_OR_RETURN(ref->hints, ParseHint());
      }
    }
    FLOE_ASSIGN_OR_RETURN(ref->alias, ParseAlias());
    if (ref->alias && AcceptSymbol("(")) {
      do {
        FLOE_ASSIGN_OR_RETURN(std::string column, ParseIdentifier("column alias"));
        ref->column_aliases.push_back(std::move(column));
      } while (AcceptSymbol(","));
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the column aliases"));
    }
    return ref;
  }

  // ---- expressions ----

  static ExprPtr MakeExpr(ExprKind kind, Position position) {
    auto expr = std::make_unique<Expr>();
    expr->kind = kind;
    expr->position = position;
    return expr;
  }

  static ExprPtr Binary(std::string op, ExprPtr left, ExprPtr right) {
    ExprPtr expr = MakeExpr(ExprKind::kBinary, left->position);
    expr->op = std::move(op);
    expr->args.push_back(std::move(left));
    expr->args.push_back(std::move(right));
    return expr;
  }

  Result<ExprPtr> ParseExpr() {
    if (++depth_ > kMaxDepth) {
      return ErrorAt(Peek(), fmt::format("expression nested deeper than {} levels", kMaxDepth));
    }
    auto result = ParseOr();
    --depth_;
    return result;
  }

  Result<ExprPtr> ParseOr() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
    while (AcceptKeyword("OR")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
      left = Binary("OR", std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> ParseAnd() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
    while (AcceptKeyword("AND")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
      left = Binary("AND", std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> ParseNot() {
    if (PeekKeyword("NOT")) {
      ExprPtr expr = MakeExpr(ExprKind::kUnary, Next().position);
      expr->op = "NOT";
      if (++depth_ > kMaxDepth) {
        return ErrorAt(Peek(), fmt::format("expression nested deeper than {} levels", kMaxDepth));
      }
      FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseNot());
      --depth_;
      expr->args.push_back(std::move(operand));
      return expr;
    }
    return ParsePredicate();
  }

  Result<ExprPtr> ParsePredicate() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
    while (true) {
      static constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<", "<=", ">", ">="};
      if (Peek().kind == TokenKind::kSymbol &&
          std::ranges::find(kComparisons, Peek().text) != std::end(kComparisons)) {
        std::string op = Next().text;
        if (op == "!=") op = "<>";
        FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
        left = Binary(std::move(op), std::move(left), std::move(right));
        continue;
      }
      if (PeekKeyword("IS")) {
        ExprPtr expr = MakeExpr(ExprKind::kIsNull, left->position);
        Next();
        expr->negated = AcceptKeyword("NOT");
        FLOE_RETURN_IF_ERROR(ExpectKeyword("NULL", expr->negated ? "after IS NOT" : "after IS"));
        expr->args.push_back(std::move(left));
        left = std::move(expr);
        continue;
      }
      bool negated = PeekKeyword("NOT") &&
                     (PeekKeyword("IN", 1) || PeekKeyword("BETWEEN", 1) || PeekKeyword("LIKE", 1));
      if (negated) Next();
      if (AcceptKeyword("IN")) {
        ExprPtr expr = MakeExpr(ExprKind::kIn, left->position);
        expr->negated = negated;
        expr->args.push_back(std::move(left));
        FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after IN"));
        if (PeekKeyword("SELECT") || PeekKeyword("VALUES")) {
          FLOE_ASSIGN_OR_RETURN(expr->query, ParseQuery());
        } else {
          do {
            FLOE_ASSIGN_OR_RETURN(ExprPtr item, ParseExpr());
            expr->args.push_back(std::move(item));
          } while (AcceptSymbol(","));
        }
        FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the IN list"));
        left = std::move(expr);
      } else if (AcceptKeyword("BETWEEN")) {
        ExprPtr expr = MakeExpr(ExprKind::kBetween, left->position);
        expr->negated = negated;
        expr->args.push_back(std::move(left));
        FLOE_ASSIGN_OR_RETURN(ExprPtr low, ParseAdditive());
        FLOE_RETURN_IF_ERROR(ExpectKeyword("AND", "after the lower bound of BETWEEN"));
        FLOE_ASSIGN_OR_RETURN(ExprPtr high, ParseAdditive());
        expr->args.push_back(std::move(low));
        expr->args.push_back(std::move(high));
        left = std::move(expr);
      } else if (AcceptKeyword("LIKE")) {
        ExprPtr expr = MakeExpr(ExprKind::kLike, left->position);
        expr->negated = negated;
        expr->args.push_back(std::move(left));
        FLOE_ASSIGN_OR_RETURN(ExprPtr pattern, ParseAdditive());
        expr->args.push_back(std::move(pattern));
        if (AcceptKeyword("ESCAPE")) {
          FLOE_ASSIGN_OR_RETURN(ExprPtr escape, ParseAdditive());
          expr->args.push_back(std::move(escape));
        }
        left = std::move(expr);
      } else {
        return left;
      }
    }
  }

  Result<ExprPtr> ParseAdditive() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
    while (PeekSymbol("+") || PeekSymbol("-") || PeekSymbol("||")) {
      std::string op = Next().text;
      FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
      left = Binary(std::move(op), std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> ParseMultiplicative() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
    while (PeekSymbol("*") || PeekSymbol("/") || PeekSymbol("%")) {
      std::string op = Next().text;
      FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
      left = Binary(std::move(op), std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> ParseUnary() {
    if (PeekSymbol("-") || PeekSymbol("+")) {
      const Token& token = Next();
      ExprPtr expr = MakeExpr(ExprKind::kUnary, token.position);
      expr->op = token.text;
      if (++depth_ > kMaxDepth) {
        return ErrorAt(Peek(), fmt::format("expression nested deeper than {} levels", kMaxDepth));
      }
      FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
      --depth_;
      expr->args.push_back(std::move(operand));
      return expr;
    }
    return ParsePrimary();
  }

  Result<ExprPtr> Literal(LiteralKind kind, const Token& token, std::string text) {
    ExprPtr expr = MakeExpr(ExprKind::kLiteral, token.position);
    expr->literal = kind;
    expr->text = std::move(text);
    return expr;
  }

  // A primary followed by subscripts and field accesses: m['k'], a[1], (r).f, m['k'].f.
  Result<ExprPtr> ParsePrimary() {
    const bool parenthesised = PeekSymbol("(");
    FLOE_ASSIGN_OR_RETURN(ExprPtr expr, ParseAtom());
    while (true) {
      if (PeekSymbol("[")) {
        ExprPtr subscript = MakeExpr(ExprKind::kSubscript, Next().position);
        FLOE_ASSIGN_OR_RETURN(ExprPtr index, ParseExpr());
        FLOE_RETURN_IF_ERROR(ExpectSymbol("]", "to close the subscript"));
        subscript->args.push_back(std::move(expr));
        subscript->args.push_back(std::move(index));
        expr = std::move(subscript);
      } else if ((parenthesised ||
                  (expr->kind != ExprKind::kColumn && expr->kind != ExprKind::kStar)) &&
                 PeekSymbol(".") && PeekIdentifier(1)) {
        ExprPtr access = MakeExpr(ExprKind::kFieldAccess, Next().position);
        access->text = Next().text;
        access->args.push_back(std::move(expr));
        expr = std::move(access);
      } else {
        return expr;
      }
    }
  }

  Result<ExprPtr> ParseAtom() {
    const Token& token = Peek();
    switch (token.kind) {
      case TokenKind::kInteger:
        Next();
        return Literal(LiteralKind::kInteger, token, token.text);
      case TokenKind::kDecimal:
        Next();
        return Literal(LiteralKind::kDecimal, token, token.text);
      case TokenKind::kDouble:
        Next();
        return Literal(LiteralKind::kDouble, token, token.text);
      case TokenKind::kString:
        Next();
        return Literal(LiteralKind::kString, token, token.text);
      default:
        break;
    }
    if (AcceptSymbol("(")) {
      if (PeekKeyword("SELECT") || PeekKeyword("VALUES")) {
        ExprPtr expr = MakeExpr(ExprKind::kSubquery, token.position);
        FLOE_ASSIGN_OR_RETURN(expr->query, ParseQuery());
        FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the subquery"));
        return expr;
      }
      FLOE_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the parenthesis"));
      return inner;
    }
    if (token.kind == TokenKind::kIdentifier) {
      if (AcceptKeyword("NULL")) return Literal(LiteralKind::kNull, token, "NULL");
      if (AcceptKeyword("TRUE")) return Literal(LiteralKind::kBoolean, token, "TRUE");
      if (AcceptKeyword("FALSE")) return Literal(LiteralKind::kBoolean, token, "FALSE");
      if (Peek(1).kind == TokenKind::kString) {
        static constexpr std::pair<std::string_view, LiteralKind> kTyped[] = {
            {"DATE", LiteralKind::kDate},
            {"TIME", LiteralKind::kTime},
            {"TIMESTAMP", LiteralKind::kTimestamp}};
        for (auto [word, kind] : kTyped) {
          if (IsKeyword(token, word)) {
            Next();
            return Literal(kind, token, Next().text);
          }
        }
      }
      if (AcceptKeyword("INTERVAL")) return ParseInterval(token);
      if (AcceptKeyword("CASE")) return ParseCase(token);
      if ((PeekKeyword("CAST") || PeekKeyword("TRY_CAST")) && PeekSymbol("(", 1)) {
        ExprPtr expr = MakeExpr(ExprKind::kCast, token.position);
        expr->op = AsciiUpper(Next().text);
        Next();
        FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
        expr->args.push_back(std::move(operand));
        FLOE_RETURN_IF_ERROR(ExpectKeyword("AS", fmt::format("in {}", expr->op)));
        FLOE_ASSIGN_OR_RETURN(expr->type, ParseType());
        FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("to close {}", expr->op)));
        return expr;
      }
    }
    if (!PeekIdentifier()) return Expected("an expression", "");
    if ((PeekKeyword("ARRAY") || PeekKeyword("MAP")) && PeekSymbol("[", 1)) {
      return ParseConstructor();
    }
    if (PeekKeyword("EXISTS") && PeekSymbol("(", 1) &&
        (PeekKeyword("SELECT", 2) || PeekKeyword("VALUES", 2))) {
      ExprPtr expr = MakeExpr(ExprKind::kSubquery, Next().position);
      expr->op = "EXISTS";
      Next();
      FLOE_ASSIGN_OR_RETURN(expr->query, ParseQuery());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close EXISTS ("));
      return expr;
    }
    if (PeekSymbol("(", 1)) return ParseFunction();
    ExprPtr expr = MakeExpr(ExprKind::kColumn, token.position);
    expr->name.push_back(Next().text);
    while (AcceptSymbol(".")) {
      if (AcceptSymbol("*")) {
        expr->kind = ExprKind::kStar;
        return expr;
      }
      FLOE_ASSIGN_OR_RETURN(std::string part, ParseIdentifier("column name after '.'"));
      expr->name.push_back(std::move(part));
    }
    return expr;
  }

  // ARRAY[a, b] and MAP[k, v, ...]: a function named ARRAY or MAP over the elements.
  Result<ExprPtr> ParseConstructor() {
    ExprPtr expr = MakeExpr(ExprKind::kFunction, Peek().position);
    expr->name.push_back(AsciiUpper(Next().text));
    Next();
    if (!PeekSymbol("]")) {
      do {
        FLOE_ASSIGN_OR_RETURN(ExprPtr element, ParseExpr());
        expr->args.push_back(std::move(element));
      } while (AcceptSymbol(","));
    }
    FLOE_RETURN_IF_ERROR(ExpectSymbol("]", fmt::format("to close {}[", expr->name[0])));
    return expr;
  }

  // The SQL-standard call forms with keywords inside the parentheses become plain calls:
  // EXTRACT(unit FROM x) -> EXTRACT(unit, x), POSITION(a IN b) -> POSITION(a, b),
  // SUBSTRING(s FROM a [FOR b]) -> SUBSTRING(s, a[, b]), TRIM([BOTH|LEADING|TRAILING] [c] FROM s)
  // -> TRIM/LTRIM/RTRIM(s[, c]). Returns null when the call has the ordinary form.
  Result<ExprPtr> ParseSpecialCall(ExprPtr expr) {
    const std::string name = AsciiUpper(expr->name[0]);
    if (name == "EXTRACT" && PeekIdentifier() && PeekKeyword("FROM", 1)) {
      ExprPtr unit = MakeExpr(ExprKind::kColumn, Peek().position);
      unit->name.push_back(AsciiUpper(Next().text));
      Next();
      FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
      expr->args.push_back(std::move(unit));
      expr->args.push_back(std::move(operand));
    } else if (name == "POSITION") {
      FLOE_ASSIGN_OR_RETURN(ExprPtr needle, ParseAdditive());
      if (!AcceptKeyword("IN")) return ExprPtr();
      FLOE_ASSIGN_OR_RETURN(ExprPtr haystack, ParseExpr());
      expr->args.push_back(std::move(needle));
      expr->args.push_back(std::move(haystack));
    } else if (name == "SUBSTRING") {
      FLOE_ASSIGN_OR_RETURN(ExprPtr text, ParseExpr());
      if (!AcceptKeyword("FROM")) return ExprPtr();
      expr->args.push_back(std::move(text));
      FLOE_ASSIGN_OR_RETURN(ExprPtr start, ParseExpr());
      expr->args.push_back(std::move(start));
      if (AcceptKeyword("FOR")) {
        FLOE_ASSIGN_OR_RETURN(ExprPtr length, ParseExpr());
        expr->args.push_back(std::move(length));
      }
    } else if (name == "TRIM") {
      if (AcceptKeyword("LEADING")) {
        expr->name[0] = "LTRIM";
      } else if (AcceptKeyword("TRAILING")) {
        expr->name[0] = "RTRIM";
      } else if (!AcceptKeyword("BOTH")) {
        FLOE_ASSIGN_OR_RETURN(ExprPtr first, ParseExpr());
        if (!AcceptKeyword("FROM")) return ExprPtr();
        FLOE_ASSIGN_OR_RETURN(ExprPtr text, ParseExpr());
        expr->args.push_back(std::move(text));
        expr->args.push_back(std::move(first));
        return expr;
      }
      ExprPtr characters;
      if (!AcceptKeyword("FROM")) {
        FLOE_ASSIGN_OR_RETURN(characters, ParseExpr());
        FLOE_RETURN_IF_ERROR(ExpectKeyword("FROM", "in TRIM"));
      }
      FLOE_ASSIGN_OR_RETURN(ExprPtr text, ParseExpr());
      expr->args.push_back(std::move(text));
      if (characters) expr->args.push_back(std::move(characters));
    } else {
      return ExprPtr();
    }
    FLOE_RETURN_IF_ERROR(
        ExpectSymbol(")", fmt::format("to close the arguments of {}", expr->name[0])));
    return expr;
  }

  Result<ExprPtr> ParseFunction() {
    ExprPtr expr = MakeExpr(ExprKind::kFunction, Peek().position);
    expr->name.push_back(Next().text);
    Next();
    {
      const size_t start = pos_;
      ExprPtr special = MakeExpr(ExprKind::kFunction, expr->position);
      special->name = expr->name;
      Result<ExprPtr> parsed = ParseSpecialCall(std::move(special));
      if (parsed && *parsed) return parsed;
      pos_ = start;  // the ordinary form: parse again from the opening parenthesis
    }
    if (AcceptSymbol("*")) {
      expr->star = true;
    } else if (!PeekSymbol(")")) {
      if (AcceptKeyword("DISTINCT")) {
        expr->distinct = true;
      } else {
        AcceptKeyword("ALL");
      }
      do {
        FLOE_ASSIGN_OR_RETURN(ExprPtr argument, ParseExpr());
        expr->args.push_back(std::move(argument));
      } while (AcceptSymbol(","));
    }
    FLOE_RETURN_IF_ERROR(
        ExpectSymbol(")", fmt::format("to close the arguments of {}", expr->name[0])));
    return expr;
  }

  Result<std::string> ParseIntervalUnit() {
    static constexpr std::string_view kUnits[] = {"YEAR", "MONTH",  "DAY",
                                                  "HOUR", "MINUTE", "SECOND"};
    for (std::string_view unit : kUnits) {
      if (AcceptKeyword(unit)) return std::string(unit);
    }
    return Expected("YEAR, MONTH, DAY, HOUR, MINUTE or SECOND", "in INTERVAL");
  }

  // A unit of an INTERVAL type with its optional precision: DAY, DAY(2), SECOND(3).
  Result<std::string> ParseIntervalQualifier() {
    FLOE_ASSIGN_OR_RETURN(std::string unit, ParseIntervalUnit());
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> precision, ParseTypeParams(unit, 1));
    if (!precision.empty()) unit += fmt::format("({})", precision[0]);
    return unit;
  }

  Result<ExprPtr> ParseInterval(const Token& start) {
    ExprPtr expr = MakeExpr(ExprKind::kLiteral, start.position);
    expr->literal = LiteralKind::kInterval;
    std::string sign;
    if (AcceptSymbol("-")) sign = "-";
    FLOE_ASSIGN_OR_RETURN(std::string text, ParseString("interval string", "after INTERVAL"));
    expr->text = sign + text;
    FLOE_ASSIGN_OR_RETURN(expr->interval_unit, ParseIntervalUnit());
    if (AcceptKeyword("TO")) {
      FLOE_ASSIGN_OR_RETURN(std::string to, ParseIntervalUnit());
      expr->interval_unit += " TO " + to;
    }
    return expr;
  }

  Result<ExprPtr> ParseCase(const Token& start) {
    ExprPtr expr = MakeExpr(ExprKind::kCase, start.position);
    if (PeekKeyword("WHEN")) {
      expr->args.push_back(nullptr);
    } else {
      FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
      expr->args.push_back(std::move(operand));
    }
    if (!PeekKeyword("WHEN")) return Expected("WHEN", "in CASE");
    while (AcceptKeyword("WHEN")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr when, ParseExpr());
      FLOE_RETURN_IF_ERROR(ExpectKeyword("THEN", "after WHEN condition"));
      FLOE_ASSIGN_OR_RETURN(ExprPtr then, ParseExpr());
      expr->args.push_back(std::move(when));
      expr->args.push_back(std::move(then));
    }
    if (AcceptKeyword("ELSE")) {
      expr->has_else = true;
      FLOE_ASSIGN_OR_RETURN(ExprPtr otherwise, ParseExpr());
      expr->args.push_back(std::move(otherwise));
    }
    FLOE_RETURN_IF_ERROR(ExpectKeyword("END", "to close CASE"));
    return expr;
  }

  // ---- types ----

  Result<std::vector<int64_t>> ParseTypeParams(std::string_view name, std::size_t max) {
    std::vector<int64_t> params;
    if (!AcceptSymbol("(")) return params;
    do {
      FLOE_ASSIGN_OR_RETURN(int64_t value,
                            ParseInteger("integer", fmt::format("in {}(...)", name)));
      if (value < 0 || value > INT32_MAX) {
        return ErrorAt(tokens_[pos_ - 1], fmt::format("{} parameter {} out of range", name, value));
      }
      params.push_back(value);
    } while (params.size() < max && AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("after {} parameters", name)));
    return params;
  }

  Result<DataType> ParseType() {
    if (++depth_ > kMaxDepth) {
      return ErrorAt(Peek(), fmt::format("type nested deeper than {} levels", kMaxDepth));
    }
    auto type = ParseTypeInner();
    --depth_;
    return type;
  }

  Result<DataType> ParseTypeInner() {
    const Token& token = Peek();
    if (token.kind != TokenKind::kIdentifier) return Expected("a type", "");
    std::string name = AsciiUpper(token.text);
    Next();
    DataType type;
    struct Simple {
      std::string_view name;
      TypeKind kind;
      std::size_t max_params;
    };
    static constexpr Simple kSimple[] = {
        {"BOOLEAN", TypeKind::kBoolean, 0},
        {"TINYINT", TypeKind::kTinyInt, 0},
        {"SMALLINT", TypeKind::kSmallInt, 0},
        {"INT", TypeKind::kInt, 0},
        {"INTEGER", TypeKind::kInt, 0},
        {"BIGINT", TypeKind::kBigInt, 0},
        {"FLOAT", TypeKind::kFloat, 0},
        {"DOUBLE", TypeKind::kDouble, 0},
        {"DECIMAL", TypeKind::kDecimal, 2},
        {"DEC", TypeKind::kDecimal, 2},
        {"NUMERIC", TypeKind::kDecimal, 2},
        {"CHAR", TypeKind::kChar, 1},
        {"VARCHAR", TypeKind::kVarChar, 1},
        {"STRING", TypeKind::kString, 0},
        {"BINARY", TypeKind::kBinary, 1},
        {"VARBINARY", TypeKind::kVarBinary, 1},
        {"BYTES", TypeKind::kBytes, 0},
        {"DATE", TypeKind::kDate, 0},
        {"TIME", TypeKind::kTime, 1},
        {"TIMESTAMP", TypeKind::kTimestamp, 1},
        {"TIMESTAMP_LTZ", TypeKind::kTimestampLtz, 1},
    };
    auto simple = std::ranges::find(kSimple, name, &Simple::name);
    if (simple != std::end(kSimple)) {
      type.kind = simple->kind;
      if (type.kind == TypeKind::kDouble) AcceptKeyword("PRECISION");
      if (simple->max_params > 0) {
        FLOE_ASSIGN_OR_RETURN(type.params, ParseTypeParams(name, simple->max_params));
      }
      bool without_zone = (type.kind == TypeKind::kTime || type.kind == TypeKind::kTimestamp) &&
                          AcceptKeywords({"WITHOUT", "TIME", "ZONE"});
      if (type.kind == TypeKind::kTimestamp && !without_zone) {
        if (AcceptKeywords({"WITH", "LOCAL", "TIME", "ZONE"})) {
          type.kind = TypeKind::kTimestampLtz;
        } else if (AcceptKeywords({"WITH", "TIME", "ZONE"})) {
          type.kind = TypeKind::kTimestampTz;
        }
      }
    } else if (name == "ARRAY" || name == "MULTISET") {
      type.kind = name == "ARRAY" ? TypeKind::kArray : TypeKind::kMultiset;
      FLOE_RETURN_IF_ERROR(ExpectSymbol("<", fmt::format("after {}", name)));
      FLOE_ASSIGN_OR_RETURN(DataType element, ParseType());
      type.elements.push_back(std::move(element));
      FLOE_RETURN_IF_ERROR(ExpectSymbol(">", fmt::format("to close {}<", name)));
    } else if (name == "MAP") {
      type.kind = TypeKind::kMap;
      FLOE_RETURN_IF_ERROR(ExpectSymbol("<", "after MAP"));
      FLOE_ASSIGN_OR_RETURN(DataType key, ParseType());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(",", "after MAP key type"));
      FLOE_ASSIGN_OR_RETURN(DataType value, ParseType());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(">", "to close MAP<"));
      type.elements.push_back(std::move(key));
      type.elements.push_back(std::move(value));
    } else if (name == "ROW") {
      type.kind = TypeKind::kRow;
      std::string_view close = ">";
      if (AcceptSymbol("(")) {
        close = ")";
      } else {
        FLOE_RETURN_IF_ERROR(ExpectSymbol("<", "after ROW"));
      }
      if (!AcceptSymbol(close)) {
        do {
          RowField field;
          FLOE_ASSIGN_OR_RETURN(field.name, ParseIdentifier("ROW field name"));
          FLOE_ASSIGN_OR_RETURN(field.type, ParseType());
          if (Peek().kind == TokenKind::kString) field.comment = Next().text;
          type.fields.push_back(std::move(field));
        } while (AcceptSymbol(","));
        FLOE_RETURN_IF_ERROR(ExpectSymbol(close, "after ROW fields"));
      }
    } else if (name == "INTERVAL") {
      type.kind = TypeKind::kInterval;
      FLOE_ASSIGN_OR_RETURN(type.interval, ParseIntervalQualifier());
      if (AcceptKeyword("TO")) {
        FLOE_ASSIGN_OR_RETURN(std::string to, ParseIntervalQualifier());
        type.interval += " TO " + to;
      }
    } else if (name == "NULL") {
      type.kind = TypeKind::kNull;
    } else {
      return ErrorAt(token, fmt::format("unknown type '{}'", token.text));
    }
    if (AcceptKeywords({"NOT", "NULL"})) {
      type.not_null = true;
    } else if (type.kind != TypeKind::kNull) {
      AcceptKeyword("NULL");
    }
    return type;
  }

  static constexpr int kMaxDepth = 128;

  std::string_view source_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

// The token runs between ';' at the top level of a script, each closed by an end token.
std::vector<std::vector<Token>> SplitTokens(std::vector<Token> tokens) {
  std::vector<std::vector<Token>> statements;
  std::vector<Token> current;
  for (Token& token : tokens) {
    bool is_end = token.kind == TokenKind::kEnd;
    if (is_end || (token.kind == TokenKind::kSymbol && token.text == ";")) {
      if (!current.empty()) {
        Token end = token;
        end.kind = TokenKind::kEnd;
        current.push_back(std::move(end));
        statements.push_back(std::move(current));
        current.clear();
      }
      continue;
    }
    current.push_back(std::move(token));
  }
  return statements;
}

}  // namespace

Result<Statement> ParseStatement(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(sql));
  return Parser(sql, std::move(tokens)).StatementToEnd();
}

Result<std::vector<Statement>> ParseScript(std::string_view script) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(script));
  std::vector<Statement> statements;
  for (std::vector<Token>& piece : SplitTokens(std::move(tokens))) {
    FLOE_ASSIGN_OR_RETURN(Statement statement, Parser(script, std::move(piece)).StatementToEnd());
    statements.push_back(std::move(statement));
  }
  return statements;
}

Result<SplitScript> SplitStatements(std::string_view script) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(script));
  SplitScript split;
  bool last_closed = true;
  std::size_t first = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    bool semicolon = token.kind == TokenKind::kSymbol && token.text == ";";
    if (!semicolon && token.kind != TokenKind::kEnd) continue;
    if (i > first) {
      std::size_t begin = tokens[first].offset;
      std::size_t end = tokens[i - 1].offset + tokens[i - 1].length;
      split.pieces.push_back(
          {std::string(script.substr(begin, end - begin)), tokens[first].position});
      last_closed = semicolon;
    }
    first = i + 1;
  }
  split.complete = last_closed;
  return split;
}

Result<DataType> ParseDataType(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  return Parser(text, std::move(tokens)).TypeToEnd();
}

Result<ExprPtr> ParseExpression(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  return Parser(text, std::move(tokens)).ExprToEnd();
}

}  // namespace floe::sql
