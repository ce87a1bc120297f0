#include "floe/sql/syntax/printer.h"

#include <fmt/format.h>

#include <algorithm>

#include "floe/util/strings.h"

namespace floe::sql {
namespace {

// Binding strength of expression nodes, loosest first; mirrors the parser's grammar levels.
enum Precedence : int {
  kOr = 1,
  kAnd = 2,
  kNot = 3,
  kPredicate = 4,
  kAdditive = 5,
  kMultiplicative = 6,
  kUnaryMinus = 7,
  kPrimary = 8,
};

int PrecedenceOf(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kBinary:
      if (expr.op == "OR") return kOr;
      if (expr.op == "AND") return kAnd;
      if (expr.op == "+" || expr.op == "-" || expr.op == "||") return kAdditive;
      if (expr.op == "*" || expr.op == "/" || expr.op == "%") return kMultiplicative;
      return kPredicate;
    case ExprKind::kUnary:
      return expr.op == "NOT" ? kNot : kUnaryMinus;
    case ExprKind::kIsNull:
    case ExprKind::kIsNan:
    case ExprKind::kIn:
    case ExprKind::kBetween:
    case ExprKind::kLike:
      return kPredicate;
    default:
      return kPrimary;
  }
}

std::string Operand(const Expr& expr, int at_least) {
  std::string text = PrintExpr(expr);
  if (PrecedenceOf(expr) < at_least) return "(" + text + ")";
  return text;
}

// Function names stay bare, as users write them, unless the parser would read them otherwise.
std::string FunctionName(std::string_view name) {
  auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
  };
  bool bare = !name.empty() && plain(name[0]) && std::ranges::all_of(name, [&](char c) {
    return plain(c) || (c >= '0' && c <= '9') || c == '$';
  });
  std::string upper = AsciiUpper(name);
  static constexpr std::string_view kSpecial[] = {"CAST", "TRY_CAST", "CASE", "INTERVAL",
                                                  "NULL", "TRUE",     "FALSE"};
  if (!bare || IsReservedWord(upper) || std::ranges::find(kSpecial, upper) != std::end(kSpecial)) {
    return QuoteIdentifier(name);
  }
  return std::string(name);
}

std::string PrintOptions(const Options& options) {
  std::string out = "(";
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (i > 0) out += ", ";
    out += QuoteString(options[i].first) + " = " + QuoteString(options[i].second);
  }
  return out + ")";
}

std::string Names(const std::vector<std::string>& names) {
  std::string out = "(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += QuoteIdentifier(names[i]);
  }
  return out + ")";
}

std::string PrintHint(const Options& hints) {
  if (hints.empty()) return "";
  return " /*+ OPTIONS" + PrintOptions(hints) + " */";
}

std::string PrintColumn(const ColumnDef& column, bool inline_key) {
  std::string out = QuoteIdentifier(column.name) + " " + PrintType(column.type);
  if (inline_key && column.primary_key) out += " PRIMARY KEY NOT ENFORCED";
  if (column.unique) out += " UNIQUE";
  if (column.metadata) {
    out += " METADATA";
    if (column.metadata_from) out += " FROM " + QuoteString(*column.metadata);
    if (column.is_virtual) out += " VIRTUAL";
  }
  if (column.comment) out += " COMMENT " + QuoteString(*column.comment);
  return out;
}

std::string PrintPartitionField(const PartitionField& field) {
  if (field.transform.empty()) return QuoteIdentifier(field.column);
  std::string out = field.transform + "(";
  if (field.argument) out += fmt::format("{}, ", *field.argument);
  return out + QuoteIdentifier(field.column) + ")";
}

std::string PrintTableRef(const TableRef& ref) {
  std::string out;
  switch (ref.kind) {
    case TableRef::Kind::kTable:
      out = PrintName(ref.name) + PrintHint(ref.hints);
      break;
    case TableRef::Kind::kSubquery:
      out = "(" + PrintQuery(*ref.query) + ")";
      break;
    case TableRef::Kind::kWindow:
      out = "TABLE(" + ref.window_function + "(TABLE " + PrintName(ref.left->name) +
            ", DESCRIPTOR(" + QuoteIdentifier(ref.time_column) + ")";
      for (const WindowArgument& argument : ref.window_arguments) {
        out += ", " + (argument.name.empty() ? "" : argument.name + " => ") +
               PrintExpr(*argument.value);
      }
      out += "))";
      break;
    case TableRef::Kind::kJoin: {
      std::string right = PrintTableRef(*ref.right);
      if (ref.right->kind == TableRef::Kind::kJoin) right = "(" + right + ")";
      static constexpr std::string_view kJoins[] = {" JOIN ",      " LEFT JOIN ",  " RIGHT JOIN ",
                                                    " FULL JOIN ", " CROSS JOIN ", ", "};
      out = PrintTableRef(*ref.left) + std::string(kJoins[static_cast<int>(ref.join)]) + right;
      if (ref.on) out += " ON " + PrintExpr(*ref.on);
      return out;
    }
  }
  if (ref.alias) out += " AS " + QuoteIdentifier(*ref.alias);
  if (!ref.column_aliases.empty()) {
    out += "(";
    for (std::size_t i = 0; i < ref.column_aliases.size(); ++i) {
      out += (i > 0 ? ", " : "") + QuoteIdentifier(ref.column_aliases[i]);
    }
    out += ")";
  }
  return out;
}

bool IsSetOperation(const Query& query) {
  return query.kind == Query::Kind::kUnion || query.kind == Query::Kind::kIntersect ||
         query.kind == Query::Kind::kExcept;
}

// A branch of `parent`, a set operation. ORDER BY/LIMIT or WITH inside a branch, a set operation
// on the right, or one of another kind on the left need parentheses.
std::string QueryTerm(const Query& query, const Query& parent, bool left) {
  bool wrap = !query.order_by.empty() || query.limit || query.offset || !query.with.empty() ||
              (IsSetOperation(query) && (!left || query.kind != parent.kind));
  std::string text = PrintQuery(query);
  return wrap ? "(" + text + ")" : text;
}

std::string SetOperator(const Query& query) {
  std::string name = query.kind == Query::Kind::kUnion       ? "UNION"
                     : query.kind == Query::Kind::kIntersect ? "INTERSECT"
                                                             : "EXCEPT";
  return " " + name + (query.all ? " ALL " : " ");
}

std::string PrintColumnsAndKey(const std::vector<ColumnDef>& columns,
                               const std::vector<std::string>& primary_key) {
  std::string out = "(";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += PrintColumn(columns[i], false);
  }
  if (!primary_key.empty()) {
    if (!columns.empty()) out += ", ";
    out += "PRIMARY KEY " + Names(primary_key) + " NOT ENFORCED";
  }
  return out + ")";
}

std::string PrintShowLike(const std::optional<ShowLike>& like) {
  if (!like) return "";
  return std::string(like->negated ? " NOT" : "") + (like->ignore_case ? " ILIKE " : " LIKE ") +
         QuoteString(like->pattern);
}

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

std::string PrintBody(const StatementBody& body) {
  return std::visit(
      Overloaded{
          [](const CreateCatalog& s) {
            return fmt::format("CREATE CATALOG {}{} WITH {}",
                               s.if_not_exists ? "IF NOT EXISTS " : "", QuoteIdentifier(s.name),
                               PrintOptions(s.options));
          },
          [](const DropCatalog& s) {
            return fmt::format("DROP CATALOG {}{}", s.if_exists ? "IF EXISTS " : "",
                               QuoteIdentifier(s.name));
          },
          [](const UseCatalog& s) { return "USE CATALOG " + QuoteIdentifier(s.name); },
          [](const ShowCatalogs&) { return std::string("SHOW CATALOGS"); },
          [](const ShowCurrentCatalog&) { return std::string("SHOW CURRENT CATALOG"); },
          [](const ShowCurrentDatabase&) { return std::string("SHOW CURRENT DATABASE"); },
          [](const CreateDatabase& s) {
            std::string out = fmt::format(
                "CREATE DATABASE {}{}", s.if_not_exists ? "IF NOT EXISTS " : "", PrintName(s.name));
            if (s.comment) out += " COMMENT " + QuoteString(*s.comment);
            if (!s.options.empty()) out += " WITH " + PrintOptions(s.options);
            return out;
          },
          [](const DropDatabase& s) {
            static constexpr std::string_view kBehavior[] = {"", " RESTRICT", " CASCADE"};
            return fmt::format("DROP DATABASE {}{}{}", s.if_exists ? "IF EXISTS " : "",
                               PrintName(s.name), kBehavior[static_cast<int>(s.behavior)]);
          },
          [](const AlterDatabase& s) {
            return "ALTER DATABASE " + PrintName(s.name) + " SET " + PrintOptions(s.options);
          },
          [](const UseDatabase& s) { return "USE " + PrintName(s.name); },
          [](const ShowDatabases& s) { return "SHOW DATABASES" + PrintShowLike(s.like); },
          [](const CreateTable& s) {
            std::string out = fmt::format(
                "CREATE TABLE {}{}", s.if_not_exists ? "IF NOT EXISTS " : "", PrintName(s.name));
            if (!s.columns.empty() || !s.primary_key.empty()) {
              out += " " + PrintColumnsAndKey(s.columns, s.primary_key);
            }
            if (s.comment) out += " COMMENT " + QuoteString(*s.comment);
            if (!s.partitioned_by.empty()) {
              out += " PARTITIONED BY (";
              for (std::size_t i = 0; i < s.partitioned_by.size(); ++i) {
                if (i > 0) out += ", ";
                out += PrintPartitionField(s.partitioned_by[i]);
              }
              out += ")";
            }
            if (!s.options.empty()) out += " WITH " + PrintOptions(s.options);
            if (s.like) {
              out += " LIKE " + PrintName(s.like->source);
              if (!s.like->options.empty()) {
                out += " (";
                for (std::size_t i = 0; i < s.like->options.size(); ++i) {
                  if (i > 0) out += ", ";
                  out += s.like->options[i].first + " " + s.like->options[i].second;
                }
                out += ")";
              }
            }
            if (s.as_query) out += " AS " + PrintQuery(*s.as_query);
            return out;
          },
          [](const AlterTable& s) {
            using Action = AlterTable::Action;
            std::string out = fmt::format("ALTER TABLE {}{} ", s.if_exists ? "IF EXISTS " : "",
                                          PrintName(s.name));
            auto alias = [&] {
              return s.partition_alias ? " AS " + QuoteIdentifier(*s.partition_alias) : "";
            };
            switch (s.action) {
              case Action::kSetOptions:
                return out + "SET " + PrintOptions(s.options);
              case Action::kResetOptions: {
                out += "RESET (";
                for (std::size_t i = 0; i < s.keys.size(); ++i) {
                  if (i > 0) out += ", ";
                  out += QuoteString(s.keys[i]);
                }
                return out + ")";
              }
              case Action::kRenameTable:
                return out + "RENAME TO " + PrintName(s.new_name);
              case Action::kRenameColumn:
                return out + "RENAME " + QuoteIdentifier(s.column) + " TO " +
                       QuoteIdentifier(s.new_column);
              case Action::kAddColumns:
              case Action::kModifyColumns: {
                out += s.action == Action::kAddColumns ? "ADD (" : "MODIFY (";
                for (std::size_t i = 0; i < s.columns.size(); ++i) {
                  if (i > 0) out += ", ";
                  out += PrintColumn(s.columns[i].column, true);
                  const ColumnPosition& position = s.columns[i].position;
                  if (position.kind == ColumnPosition::Kind::kFirst) out += " FIRST";
                  if (position.kind == ColumnPosition::Kind::kAfter) {
                    out += " AFTER " + QuoteIdentifier(position.after);
                  }
                }
                bool inline_key = std::ranges::any_of(
                    s.columns, [](const AlterColumn& c) { return c.column.primary_key; });
                if (!s.primary_key.empty() && !inline_key) {
                  if (!s.columns.empty()) out += ", ";
                  out += "PRIMARY KEY " + Names(s.primary_key) + " NOT ENFORCED";
                }
                return out + ")";
              }
              case Action::kDropColumns:
                return out + "DROP " + Names(s.dropped);
              case Action::kAddPartitionField:
                return out + "ADD PARTITION FIELD " + PrintPartitionField(s.partition_field) +
                       alias();
              case Action::kDropPartitionField:
                return out + "DROP PARTITION FIELD " + PrintPartitionField(s.partition_field);
              case Action::kReplacePartitionField:
                return out + "REPLACE PARTITION FIELD " + PrintPartitionField(s.partition_field) +
                       " WITH " + PrintPartitionField(s.new_partition_field) + alias();
            }
            return out;
          },
          [](const DropTable& s) {
            return fmt::format("DROP TABLE {}{}", s.if_exists ? "IF EXISTS " : "",
                               PrintName(s.name));
          },
          [](const ShowTables& s) {
            return (s.database ? "SHOW TABLES FROM " + PrintName(*s.database)
                               : std::string("SHOW TABLES")) +
                   PrintShowLike(s.like);
          },
          [](const ShowViews& s) {
            return (s.database ? "SHOW VIEWS FROM " + PrintName(*s.database)
                               : std::string("SHOW VIEWS")) +
                   PrintShowLike(s.like);
          },
          [](const CreateView& s) {
            std::string out =
                fmt::format("CREATE {}VIEW {}{}", s.temporary ? "TEMPORARY " : "",
                            s.if_not_exists ? "IF NOT EXISTS " : "", PrintName(s.name));
            if (!s.columns.empty()) {
              out += " (";
              for (std::size_t i = 0; i < s.columns.size(); ++i) {
                out += (i > 0 ? ", " : "") + QuoteIdentifier(s.columns[i]);
              }
              out += ")";
            }
            if (s.comment) out += " COMMENT " + QuoteString(*s.comment);
            return out + " AS " + PrintQuery(*s.query);
          },
          [](const DropView& s) {
            return fmt::format("DROP {}VIEW {}{}", s.temporary ? "TEMPORARY " : "",
                               s.if_exists ? "IF EXISTS " : "", PrintName(s.name));
          },
          [](const ShowCreateView& s) { return "SHOW CREATE VIEW " + PrintName(s.name); },
          [](const ShowCreateTable& s) { return "SHOW CREATE TABLE " + PrintName(s.name); },
          [](const DescribeTable& s) {
            return std::string(s.extended ? "DESCRIBE EXTENDED " : "DESCRIBE ") + PrintName(s.name);
          },
          [](const ShowJobs&) { return std::string("SHOW JOBS"); },
          [](const StopJob& s) {
            return "STOP JOB " + QuoteString(s.id) + (s.with_savepoint ? " WITH SAVEPOINT" : "") +
                   (s.with_drain ? " WITH DRAIN" : "");
          },
          [](const SetOption& s) {
            if (!s.key) return std::string("SET");
            return "SET " + QuoteString(*s.key) + " = " + QuoteString(s.value);
          },
          [](const ResetOption& s) {
            return s.key ? "RESET " + QuoteString(*s.key) : std::string("RESET");
          },
          [](const Insert& s) {
            std::string out = s.overwrite ? "INSERT OVERWRITE " : "INSERT INTO ";
            out += PrintName(s.table) + PrintHint(s.hints);
            if (!s.partition.empty()) {
              out += " PARTITION (";
              for (std::size_t i = 0; i < s.partition.size(); ++i) {
                if (i > 0) out += ", ";
                out += QuoteIdentifier(s.partition[i].first) + " = " +
                       PrintExpr(*s.partition[i].second);
              }
              out += ")";
            }
            if (!s.columns.empty()) out += " " + Names(s.columns);
            return out + " " + PrintQuery(*s.query);
          },
          [](const QueryStatement& s) { return PrintQuery(*s.query); },
          [](const Call& s) {
            std::string out = "CALL " + PrintName(s.procedure) + "(";
            for (std::size_t i = 0; i < s.arguments.size(); ++i) {
              if (i > 0) out += ", ";
              if (s.arguments[i].name) out += QuoteIdentifier(*s.arguments[i].name) + " => ";
              out += PrintExpr(*s.arguments[i].value);
            }
            return out + ")";
          },
          [](const Help&) { return std::string("HELP"); },
          [](const Quit&) { return std::string("QUIT"); },
          [](const Explain& s) { return "EXPLAIN " + PrintStatement(*s.statement); },
      },
      body);
}

}  // namespace

std::string PrintName(const ObjectName& name) {
  std::string out;
  for (const std::string& part : name.parts) {
    if (!out.empty()) out += ".";
    out += QuoteIdentifier(part);
  }
  return out;
}

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  return out + "`";
}

std::string QuoteString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string PrintType(const SqlType& type) {
  auto params = [&](std::string_view name) {
    std::string out(name);
    if (type.params.empty()) return out;
    out += "(";
    for (std::size_t i = 0; i < type.params.size(); ++i) {
      if (i > 0) out += ", ";
      out += fmt::format("{}", type.params[i]);
    }
    return out + ")";
  };
  std::string out;
  switch (type.kind) {
    case SqlTypeKind::kBoolean:
      out = "BOOLEAN";
      break;
    case SqlTypeKind::kTinyInt:
      out = "TINYINT";
      break;
    case SqlTypeKind::kSmallInt:
      out = "SMALLINT";
      break;
    case SqlTypeKind::kInt:
      out = "INT";
      break;
    case SqlTypeKind::kBigInt:
      out = "BIGINT";
      break;
    case SqlTypeKind::kFloat:
      out = "FLOAT";
      break;
    case SqlTypeKind::kDouble:
      out = "DOUBLE";
      break;
    case SqlTypeKind::kDecimal:
      out = params("DECIMAL");
      break;
    case SqlTypeKind::kChar:
      out = params("CHAR");
      break;
    case SqlTypeKind::kVarChar:
      out = params("VARCHAR");
      break;
    case SqlTypeKind::kString:
      out = "STRING";
      break;
    case SqlTypeKind::kBinary:
      out = params("BINARY");
      break;
    case SqlTypeKind::kVarBinary:
      out = params("VARBINARY");
      break;
    case SqlTypeKind::kBytes:
      out = "BYTES";
      break;
    case SqlTypeKind::kDate:
      out = "DATE";
      break;
    case SqlTypeKind::kTime:
      out = params("TIME");
      break;
    case SqlTypeKind::kTimestamp:
      out = params("TIMESTAMP");
      break;
    case SqlTypeKind::kTimestampLtz:
      out = params("TIMESTAMP_LTZ");
      break;
    case SqlTypeKind::kTimestampTz:
      out = params("TIMESTAMP") + " WITH TIME ZONE";
      break;
    case SqlTypeKind::kArray:
      out = "ARRAY<" + PrintType(type.elements[0]) + ">";
      break;
    case SqlTypeKind::kMultiset:
      out = "MULTISET<" + PrintType(type.elements[0]) + ">";
      break;
    case SqlTypeKind::kMap:
      out = "MAP<" + PrintType(type.elements[0]) + ", " + PrintType(type.elements[1]) + ">";
      break;
    case SqlTypeKind::kRow: {
      out = "ROW<";
      for (std::size_t i = 0; i < type.fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += QuoteIdentifier(type.fields[i].name) + " " + PrintType(type.fields[i].type);
        if (type.fields[i].comment) out += " " + QuoteString(*type.fields[i].comment);
      }
      out += ">";
      break;
    }
    case SqlTypeKind::kNull:
      out = "NULL";
      break;
    case SqlTypeKind::kInterval:
      out = "INTERVAL " + type.interval;
      break;
  }
  if (type.not_null) out += " NOT NULL";
  return out;
}

namespace {

std::string OrderItemText(const OrderItem& item) {
  std::string out = PrintExpr(*item.expr) + (item.descending ? " DESC" : " ASC");
  if (item.nulls_first) out += *item.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  return out;
}

std::string FrameBoundText(const FrameBound& bound) {
  switch (bound.kind) {
    case FrameBound::Kind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case FrameBound::Kind::kPreceding:
      return PrintExpr(*bound.offset) + " PRECEDING";
    case FrameBound::Kind::kCurrentRow:
      return "CURRENT ROW";
    case FrameBound::Kind::kFollowing:
      return PrintExpr(*bound.offset) + " FOLLOWING";
    case FrameBound::Kind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "";
}

std::string OverText(const OverClause& over) {
  std::vector<std::string> parts;
  if (!over.partition_by.empty()) {
    std::string keys;
    for (const ExprPtr& key : over.partition_by) {
      keys += (keys.empty() ? "" : ", ") + PrintExpr(*key);
    }
    parts.push_back("PARTITION BY " + keys);
  }
  if (!over.order_by.empty()) {
    std::string keys;
    for (const OrderItem& item : over.order_by) {
      keys += (keys.empty() ? "" : ", ") + OrderItemText(item);
    }
    parts.push_back("ORDER BY " + keys);
  }
  if (over.frame != OverClause::Frame::kNone) {
    parts.push_back(fmt::format("{} BETWEEN {} AND {}",
                                over.frame == OverClause::Frame::kRows ? "ROWS" : "RANGE",
                                FrameBoundText(over.start), FrameBoundText(over.end)));
  }
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : " ") + part;
  return out;
}

}  // namespace

std::string PrintExpr(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kLiteral:
      switch (expr.literal) {
        case LiteralKind::kNull:
        case LiteralKind::kBoolean:
        case LiteralKind::kInteger:
        case LiteralKind::kDecimal:
        case LiteralKind::kDouble:
          return expr.text;
        case LiteralKind::kString:
          return QuoteString(expr.text);
        case LiteralKind::kDate:
          return "DATE " + QuoteString(expr.text);
        case LiteralKind::kTime:
          return "TIME " + QuoteString(expr.text);
        case LiteralKind::kTimestamp:
          return "TIMESTAMP " + QuoteString(expr.text);
        case LiteralKind::kInterval: {
          std::string_view text = expr.text;
          std::string sign;
          if (!text.empty() && text[0] == '-') {
            sign = "-";
            text.remove_prefix(1);
          }
          return "INTERVAL " + sign + QuoteString(text) + " " + expr.interval_unit;
        }
      }
      return expr.text;
    case ExprKind::kColumn:
    case ExprKind::kStar: {
      std::string out;
      for (const std::string& part : expr.name) {
        if (!out.empty()) out += ".";
        out += QuoteIdentifier(part);
      }
      if (expr.kind == ExprKind::kStar) out += out.empty() ? "*" : ".*";
      return out;
    }
    case ExprKind::kUnary: {
      if (expr.op == "NOT") return "NOT " + Operand(*expr.args[0], kNot);
      std::string operand = Operand(*expr.args[0], kUnaryMinus);
      // "- -1", not "--1", which would start a comment.
      if (operand.starts_with('-') || operand.starts_with('+')) return expr.op + " " + operand;
      return expr.op + operand;
    }
    case ExprKind::kBinary: {
      int precedence = PrecedenceOf(expr);
      return Operand(*expr.args[0], precedence) + " " + expr.op + " " +
             Operand(*expr.args[1], precedence + 1);
    }
    case ExprKind::kIsNull:
      return Operand(*expr.args[0], kPredicate) + (expr.negated ? " IS NOT " : " IS ") +
             (expr.text.empty() ? "NULL" : expr.text);
    case ExprKind::kIsNan:
      return Operand(*expr.args[0], kPredicate) + (expr.negated ? " IS NOT NAN" : " IS NAN");
    case ExprKind::kIn: {
      std::string out = Operand(*expr.args[0], kPredicate) + (expr.negated ? " NOT IN (" : " IN (");
      if (expr.query) return out + PrintQuery(*expr.query) + ")";
      for (std::size_t i = 1; i < expr.args.size(); ++i) {
        if (i > 1) out += ", ";
        out += PrintExpr(*expr.args[i]);
      }
      return out + ")";
    }
    case ExprKind::kBetween:
      return Operand(*expr.args[0], kPredicate) + (expr.negated ? " NOT BETWEEN " : " BETWEEN ") +
             Operand(*expr.args[1], kAdditive) + " AND " + Operand(*expr.args[2], kAdditive);
    case ExprKind::kLike: {
      std::string out = Operand(*expr.args[0], kPredicate) +
                        (expr.negated ? " NOT LIKE " : " LIKE ") +
                        Operand(*expr.args[1], kAdditive);
      if (expr.args.size() > 2) out += " ESCAPE " + Operand(*expr.args[2], kAdditive);
      return out;
    }
    case ExprKind::kCase: {
      std::string out = "CASE";
      if (expr.args[0]) out += " " + PrintExpr(*expr.args[0]);
      std::size_t pairs_end = expr.args.size() - (expr.has_else ? 1 : 0);
      for (std::size_t i = 1; i + 1 < pairs_end; i += 2) {
        out += " WHEN " + PrintExpr(*expr.args[i]) + " THEN " + PrintExpr(*expr.args[i + 1]);
      }
      if (expr.has_else) out += " ELSE " + PrintExpr(*expr.args.back());
      return out + " END";
    }
    case ExprKind::kCast:
      return expr.op + "(" + PrintExpr(*expr.args[0]) + " AS " + PrintType(expr.type) + ")";
    case ExprKind::kFunction: {
      if ((expr.name[0] == "ARRAY" || expr.name[0] == "MAP") && !expr.star && !expr.distinct) {
        std::string out = expr.name[0] + "[";
        for (std::size_t i = 0; i < expr.args.size(); ++i) {
          out += (i > 0 ? ", " : "") + PrintExpr(*expr.args[i]);
        }
        return out + "]";
      }
      if (expr.name[0] == "JSON_OBJECT" || expr.name[0] == "JSON_ARRAY") {
        const bool object = expr.name[0] == "JSON_OBJECT";
        std::string out = expr.name[0] + "(";
        for (std::size_t i = 0; i < expr.args.size(); i += object ? 2 : 1) {
          if (i > 0) out += ", ";
          if (object) out += "KEY " + PrintExpr(*expr.args[i]) + " VALUE ";
          out += PrintExpr(*expr.args[i + (object ? 1 : 0)]);
        }
        if (!expr.op.empty()) out += (expr.args.empty() ? "" : " ") + expr.op;
        return out + ")";
      }
      std::string out = FunctionName(expr.name[0]) + "(";
      if (expr.star) {
        out += "*)";
      } else {
        if (expr.distinct) out += "DISTINCT ";
        for (std::size_t i = 0; i < expr.args.size(); ++i) {
          if (i > 0) out += ", ";
          out += PrintExpr(*expr.args[i]);
        }
        out += ")";
      }
      if (expr.over) out += " OVER (" + OverText(*expr.over) + ")";
      return out;
    }
    case ExprKind::kSubquery:
      return (expr.op == "EXISTS" ? "EXISTS (" : "(") + PrintQuery(*expr.query) + ")";
    case ExprKind::kSubscript:
      return Operand(*expr.args[0], kPrimary) + "[" + PrintExpr(*expr.args[1]) + "]";
    case ExprKind::kFieldAccess: {
      // A column's field would read back as a longer column name, which the binder also
      // resolves; the parentheses keep the node as it is.
      std::string base = PrintExpr(*expr.args[0]);
      if (expr.args[0]->kind == ExprKind::kColumn || PrecedenceOf(*expr.args[0]) < kPrimary) {
        base = "(" + base + ")";
      }
      return base + "." + QuoteIdentifier(expr.text);
    }
  }
  return "";
}

std::string PrintQuery(const Query& query) {
  std::string out;
  switch (query.kind) {
    case Query::Kind::kSelect: {
      out = query.distinct ? "SELECT DISTINCT " : "SELECT ";
      for (std::size_t i = 0; i < query.items.size(); ++i) {
        if (i > 0) out += ", ";
        out += PrintExpr(*query.items[i].expr);
        if (query.items[i].alias) out += " AS " + QuoteIdentifier(*query.items[i].alias);
      }
      if (query.from) out += " FROM " + PrintTableRef(*query.from);
      if (query.where) out += " WHERE " + PrintExpr(*query.where);
      if (!query.group_by.empty()) {
        out += " GROUP BY ";
        for (std::size_t i = 0; i < query.group_by.size(); ++i) {
          if (i > 0) out += ", ";
          out += PrintExpr(*query.group_by[i]);
        }
      }
      if (query.having) out += " HAVING " + PrintExpr(*query.having);
      break;
    }
    case Query::Kind::kValues: {
      out = "VALUES ";
      for (std::size_t r = 0; r < query.rows.size(); ++r) {
        if (r > 0) out += ", ";
        out += "(";
        for (std::size_t i = 0; i < query.rows[r].size(); ++i) {
          if (i > 0) out += ", ";
          out += PrintExpr(*query.rows[r][i]);
        }
        out += ")";
      }
      break;
    }
    case Query::Kind::kUnion:
    case Query::Kind::kIntersect:
    case Query::Kind::kExcept:
      out = QueryTerm(*query.left, query, true) + SetOperator(query) +
            QueryTerm(*query.right, query, false);
      break;
  }
  if (!query.with.empty()) {
    std::string with = "WITH ";
    for (std::size_t i = 0; i < query.with.size(); ++i) {
      const CommonTableExpr& cte = query.with[i];
      if (i > 0) with += ", ";
      with += QuoteIdentifier(cte.name);
      if (!cte.columns.empty()) {
        with += "(";
        for (std::size_t c = 0; c < cte.columns.size(); ++c) {
          if (c > 0) with += ", ";
          with += QuoteIdentifier(cte.columns[c]);
        }
        with += ")";
      }
      with += " AS (" + PrintQuery(*cte.query) + ")";
    }
    out = with + " " + out;
  }
  if (!query.order_by.empty()) {
    out += " ORDER BY ";
    for (std::size_t i = 0; i < query.order_by.size(); ++i) {
      if (i > 0) out += ", ";
      out += OrderItemText(query.order_by[i]);
    }
  }
  if (query.limit) out += " LIMIT " + PrintExpr(*query.limit);
  if (query.offset) out += " OFFSET " + PrintExpr(*query.offset);
  return out;
}

std::string PrintStatement(const Statement& statement) { return PrintBody(statement.body); }

}  // namespace floe::sql
