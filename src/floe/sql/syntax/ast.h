#pragma once

// The syntax tree of floe's Flink SQL dialect, as the parser builds it and the printer writes it
// back. It records what the user wrote, with no name resolution or type checking: that is the
// binder's job. Names keep their case; keywords are normalised. Nodes own their children, so trees
// move but do not copy.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "floe/sql/syntax/lexer.h"

namespace floe::sql {

// A possibly qualified name: `catalog`.`db`.`table`, `db`.`table` or `table`.
struct ObjectName {
  std::vector<std::string> parts;
};

// Ordered 'key' = 'value' pairs of WITH (...), SET (...) and OPTIONS(...) hints.
using Options = std::vector<std::pair<std::string, std::string>>;

enum class SqlTypeKind : unsigned char {
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kFloat,
  kDouble,
  kDecimal,
  kChar,
  kVarChar,
  kString,
  kBinary,
  kVarBinary,
  kBytes,
  kDate,
  kTime,
  kTimestamp,
  kTimestampLtz,
  kTimestampTz,
  kArray,
  kMap,
  kMultiset,
  kRow,
  kNull,
  kInterval,
};

struct SqlType;
struct RowField;

// A Flink SQL type as written. `params` holds the precision/length/scale given in parentheses (none
// when omitted); TIMESTAMP WITH LOCAL TIME ZONE is kTimestampLtz, WITH TIME ZONE is kTimestampTz.
// An INTERVAL type keeps its qualifier as written, normalised: "DAY(2) TO SECOND(3)", "MONTH".
struct SqlType {
  SqlTypeKind kind = SqlTypeKind::kInt;
  std::vector<int64_t> params;
  std::string interval;
  bool not_null = false;
  std::vector<SqlType> elements;  // ARRAY/MULTISET: one; MAP: key, value
  std::vector<RowField> fields;   // ROW
};

struct RowField {
  std::string name;
  SqlType type;
  std::optional<std::string> comment;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Query;
using QueryPtr = std::unique_ptr<Query>;
struct OverClause;

enum class ExprKind : unsigned char {
  kLiteral,
  kColumn,
  kStar,
  kUnary,
  kBinary,
  kIsNull,
  kIsNan,
  kIn,
  kBetween,
  kLike,
  kCase,
  kCast,
  kFunction,
  kSubquery,
  kSubscript,
  kFieldAccess,
};

enum class LiteralKind : unsigned char {
  kNull,
  kBoolean,
  kInteger,
  kDecimal,
  kDouble,
  kString,
  kDate,
  kTime,
  kTimestamp,
  kInterval,
};

// One expression node; which fields matter depends on `kind`:
//   kLiteral: literal, text ("TRUE"/"FALSE" for booleans, digits for numbers, the value for
//             strings and typed literals), interval_unit ("DAY", "YEAR TO MONTH"...)
//   kColumn:  name (qualified parts); kStar: name holds the qualifier of t.*, if any
//   kUnary:   op ("-", "+", "NOT"), args[0]
//   kBinary:  op ("+", "-", "*", "/", "%", "||", "=", "<>", "<", "<=", ">", ">=", "AND", "OR",
//             "IS DISTINCT FROM", "IS NOT DISTINCT FROM"), args[0] and args[1]
//   kIsNull/kIsNan/kIn/kBetween/kLike: negated; args[0] the operand; IN: the list, or query for
//             a subquery; BETWEEN: args[1..2]; LIKE: args[1] the pattern, args[2] the optional
//             ESCAPE. kIsNan (IS [NOT] NAN) is floe's, not Flink's: Iceberg's is_nan predicate.
//             kIsNull's text is "TRUE", "FALSE" or "UNKNOWN" for IS [NOT] TRUE..., empty for NULL
//   kCase:    args[0] the operand or null, then WHEN/THEN pairs, then ELSE if has_else
//   kCast:    args[0], type; op is "CAST" or "TRY_CAST"
//   kFunction: name, args, distinct, star (COUNT(*)), over (`f(...) OVER (...)`, else null)
//   kSubquery: query; op is "EXISTS" for EXISTS (query)
//   kSubscript: args[0][args[1]] (a map key or a 1-based array index)
//   kFieldAccess: args[0].text, a field of a ROW value that is not a plain column name
//             (`(x).f`, `m['k'].f`); `col.f` stays a kColumn name, resolved by the binder
struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  Position position;
  LiteralKind literal = LiteralKind::kNull;
  std::string text;
  std::string interval_unit;
  std::string op;
  std::vector<std::string> name;
  std::vector<ExprPtr> args;
  SqlType type;
  QueryPtr query;
  std::shared_ptr<const OverClause> over;
  bool negated = false;
  bool distinct = false;
  bool star = false;
  bool has_else = false;
};

struct SelectItem {
  ExprPtr expr;
  std::optional<std::string> alias;
};

struct TableRef;
using TableRefPtr = std::unique_ptr<TableRef>;

enum class JoinKind : unsigned char { kInner, kLeft, kRight, kFull, kCross, kComma };

// An argument of a window table function after its data and DESCRIPTOR: `SIZE => INTERVAL ...`
// has a name (upper case), a positional one none.
struct WindowArgument {
  std::string name;
  ExprPtr value;
};

// A FROM item: a table (with its OPTIONS hint), a parenthesised query, a join of two items, or a
// window table function `TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE))` (kWindow:
// `window_function` upper case, its data in `left`, the DESCRIPTOR's column in `time_column`).
// `column_aliases` renames the item's columns: `(VALUES (1, 2)) AS t(x, y)`.
struct TableRef {
  enum class Kind : unsigned char { kTable, kSubquery, kJoin, kWindow } kind = Kind::kTable;
  std::string window_function;
  std::string time_column;
  std::vector<WindowArgument> window_arguments;
  Position position;
  ObjectName name;
  Options hints;
  std::optional<std::string> alias;
  std::vector<std::string> column_aliases;
  QueryPtr query;
  JoinKind join = JoinKind::kInner;
  TableRefPtr left;
  TableRefPtr right;
  ExprPtr on;
};

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;
};

// A bound of a window frame: UNBOUNDED PRECEDING, <offset> PRECEDING, CURRENT ROW,
// <offset> FOLLOWING, UNBOUNDED FOLLOWING; the offset is a count (ROWS) or a value or INTERVAL
// (RANGE).
struct FrameBound {
  enum class Kind : unsigned char {
    kUnboundedPreceding,
    kPreceding,
    kCurrentRow,
    kFollowing,
    kUnboundedFollowing
  } kind = Kind::kCurrentRow;
  ExprPtr offset;
};

// OVER (PARTITION BY ... ORDER BY ... [ROWS | RANGE] [BETWEEN start AND end | start]); a frame
// given by its start alone ends at CURRENT ROW. Shared, not owned: copies of the call share it.
struct OverClause {
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  enum class Frame : unsigned char { kNone, kRows, kRange } frame = Frame::kNone;
  FrameBound start;
  FrameBound end;
};

// One `name [(columns)] AS (query)` of a WITH clause.
struct CommonTableExpr {
  std::string name;
  std::vector<std::string> columns;
  QueryPtr query;
  Position position;
};

// A query: SELECT, VALUES or a set operation (UNION, INTERSECT, EXCEPT; `all` for ALL) of two
// queries, with the WITH clause's named queries visible in it and ORDER BY and LIMIT/OFFSET
// applying to the whole.
struct Query {
  enum class Kind : unsigned char {
    kSelect,
    kValues,
    kUnion,
    kIntersect,
    kExcept
  } kind = Kind::kSelect;
  // WITH: each may name the ones before it.
  std::vector<CommonTableExpr> with;
  // kSelect
  bool distinct = false;
  std::vector<SelectItem> items;
  TableRefPtr from;
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  ExprPtr having;
  // kValues
  std::vector<std::vector<ExprPtr>> rows;
  // kUnion, kIntersect, kExcept
  bool all = false;
  QueryPtr left;
  QueryPtr right;
  // any kind
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
};

struct ColumnDef {
  std::string name;
  SqlType type;
  std::optional<std::string> comment;
  bool primary_key = false;  // inline PRIMARY KEY NOT ENFORCED
  bool unique = false;
  // METADATA [FROM 'key'] [VIRTUAL] (connector tables): the key, the column's name without FROM.
  std::optional<std::string> metadata;
  bool metadata_from = false;  // the key was given with FROM
  bool is_virtual = false;
};

// A PARTITIONED BY item: a column, or a transform of one: bucket(N, c), truncate(W, c), years(c)...
// `transform` is lower case and empty for identity; `argument` is N or W.
struct PartitionField {
  std::string transform;
  std::optional<int64_t> argument;
  std::string column;
};

// LIKE source [(INCLUDING ALL, EXCLUDING OPTIONS, ...)]: each option as (mode, what), upper case.
struct LikeClause {
  ObjectName source;
  std::vector<std::pair<std::string, std::string>> options;
};

// ---- statements ----

struct CreateCatalog {
  std::string name;
  bool if_not_exists = false;
  Options options;
};
struct DropCatalog {
  std::string name;
  bool if_exists = false;
};
struct UseCatalog {
  std::string name;
};
struct ShowCatalogs {};
struct ShowCurrentCatalog {};
struct ShowCurrentDatabase {};

struct CreateDatabase {
  ObjectName name;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  Options options;
};
enum class DropBehavior : unsigned char { kDefault, kRestrict, kCascade };
struct DropDatabase {
  ObjectName name;
  bool if_exists = false;
  DropBehavior behavior = DropBehavior::kDefault;
};
struct AlterDatabase {
  ObjectName name;
  Options options;
};
struct UseDatabase {
  ObjectName name;
};
// SHOW ... [NOT] LIKE 'pattern', or ILIKE to ignore case.
struct ShowLike {
  std::string pattern;
  bool negated = false;
  bool ignore_case = false;
};

struct ShowDatabases {
  std::optional<ShowLike> like;
};

// WATERMARK FOR column AS strategy: the column becomes the table's event-time attribute.
struct WatermarkDef {
  std::string column;
  ExprPtr strategy;
  Position position;  // of WATERMARK
};

struct CreateTable {
  ObjectName name;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::vector<std::string> primary_key;  // table-level PRIMARY KEY (...) NOT ENFORCED
  std::optional<WatermarkDef> watermark;
  std::optional<std::string> comment;
  std::vector<PartitionField> partitioned_by;
  Options options;
  std::optional<LikeClause> like;
  QueryPtr as_query;
};

// FIRST or AFTER c, for ALTER TABLE ADD/MODIFY.
struct ColumnPosition {
  enum class Kind : unsigned char { kDefault, kFirst, kAfter } kind = Kind::kDefault;
  std::string after;
};
struct AlterColumn {
  ColumnDef column;
  ColumnPosition position;
};

struct AlterTable {
  enum class Action : unsigned char {
    kSetOptions,
    kResetOptions,
    kRenameTable,
    kAddColumns,
    kModifyColumns,
    kRenameColumn,
    kDropColumns,
    kAddPartitionField,
    kDropPartitionField,
    kReplacePartitionField,
  };
  ObjectName name;
  bool if_exists = false;
  Action action = Action::kSetOptions;
  Options options;                       // kSetOptions
  std::vector<std::string> keys;         // kResetOptions
  ObjectName new_name;                   // kRenameTable
  std::vector<AlterColumn> columns;      // kAddColumns, kModifyColumns
  std::vector<std::string> primary_key;  // kAddColumns, kModifyColumns: a PRIMARY KEY in the list
  std::string column;                    // kRenameColumn: old name
  std::string new_column;                // kRenameColumn: new name
  std::vector<std::string> dropped;      // kDropColumns
  PartitionField partition_field;      // kAdd/kDrop/kReplacePartitionField (the old one to replace)
  PartitionField new_partition_field;  // kReplacePartitionField
  std::optional<std::string> partition_alias;  // ... AS name
};

struct DropTable {
  ObjectName name;
  bool if_exists = false;
};
struct ShowTables {
  std::optional<ObjectName> database;
  std::optional<ShowLike> like;
};

// CREATE [TEMPORARY] VIEW [IF NOT EXISTS] v [(columns)] [COMMENT '...'] AS query: the query is
// kept as written (`query_text`) and parsed again when the view is made.
struct CreateView {
  ObjectName name;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<std::string> columns;
  std::optional<std::string> comment;
  QueryPtr query;
  std::string query_text;
};
struct DropView {
  ObjectName name;
  bool temporary = false;
  bool if_exists = false;
};
struct ShowViews {
  std::optional<ObjectName> database;
  std::optional<ShowLike> like;
};
struct ShowCreateView {
  ObjectName name;
};
struct ShowCreateTable {
  ObjectName name;
};
struct DescribeTable {
  ObjectName name;
  bool extended = false;
};
struct ShowJobs {};
struct StopJob {
  std::string id;
  bool with_savepoint = false;
  bool with_drain = false;
};

// SET; SET 'k' = 'v'; SET k.with-dashes = value (the legacy unquoted form, kept as written).
struct SetOption {
  std::optional<std::string> key;
  std::string value;
};
struct ResetOption {
  std::optional<std::string> key;
};

struct Insert {
  bool overwrite = false;
  ObjectName table;
  Options hints;
  std::vector<std::pair<std::string, ExprPtr>> partition;  // PARTITION (c = literal, ...)
  std::vector<std::string> columns;                        // optional target column list
  QueryPtr query;
};

struct QueryStatement {
  QueryPtr query;
};

// CALL catalog.system.procedure(arg, name => arg, ...)
struct CallArgument {
  std::optional<std::string> name;
  ExprPtr value;
};
struct Call {
  ObjectName procedure;
  std::vector<CallArgument> arguments;
};

struct Help {};
struct Quit {};

struct Statement;
struct Explain {
  std::unique_ptr<Statement> statement;
};

using StatementBody =
    std::variant<CreateCatalog, DropCatalog, UseCatalog, ShowCatalogs, ShowCurrentCatalog,
                 ShowCurrentDatabase, CreateDatabase, DropDatabase, AlterDatabase, UseDatabase,
                 ShowDatabases, CreateTable, AlterTable, DropTable, ShowTables, ShowCreateTable,
                 DescribeTable, ShowJobs, StopJob, SetOption, ResetOption, Insert, QueryStatement,
                 Call, Help, Quit, Explain, CreateView, DropView, ShowViews, ShowCreateView>;

// One statement and where it starts in its script, for error messages.
struct Statement {
  StatementBody body;
  Position position;
};

}  // namespace floe::sql
