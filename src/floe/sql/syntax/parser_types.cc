// Data types: the Flink SQL types with their parameters, nested ARRAY, MAP, MULTISET, ROW.
// Part of the parser (parser_internal.h).

#include <fmt/format.h>

#include "floe/sql/syntax/parser_internal.h"

namespace floe::sql::parser_internal {

Result<std::vector<int64_t>> Parser::ParseTypeParams(std::string_view name, std::size_t max) {
  std::vector<int64_t> params;
  if (!AcceptSymbol("(")) return params;
  do {
    FLOE_ASSIGN_OR_RETURN(int64_t value, ParseInteger("integer", fmt::format("in {}(...)", name)));
    if (value < 0 || value > INT32_MAX) {
      return ErrorAt(tokens_[pos_ - 1], fmt::format("{} parameter {} out of range", name, value));
    }
    params.push_back(value);
  } while (params.size() < max && AcceptSymbol(","));
  FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("after {} parameters", name)));
  return params;
}

Result<SqlType> Parser::ParseType() {
  if (++depth_ > kMaxDepth) {
    return ErrorAt(Peek(), fmt::format("type nested deeper than {} levels", kMaxDepth));
  }
  auto type = ParseTypeInner();
  --depth_;
  return type;
}

Result<SqlType> Parser::ParseTypeInner() {
  const Token& token = Peek();
  if (token.kind != TokenKind::kIdentifier) return Expected("a type", "");
  std::string name = AsciiUpper(token.text);
  Next();
  SqlType type;
  struct Simple {
    std::string_view name;
    SqlTypeKind kind;
    std::size_t max_params;
  };
  static constexpr Simple kSimple[] = {
      {"BOOLEAN", SqlTypeKind::kBoolean, 0},
      {"TINYINT", SqlTypeKind::kTinyInt, 0},
      {"SMALLINT", SqlTypeKind::kSmallInt, 0},
      {"INT", SqlTypeKind::kInt, 0},
      {"INTEGER", SqlTypeKind::kInt, 0},
      {"BIGINT", SqlTypeKind::kBigInt, 0},
      {"FLOAT", SqlTypeKind::kFloat, 0},
      {"DOUBLE", SqlTypeKind::kDouble, 0},
      {"DECIMAL", SqlTypeKind::kDecimal, 2},
      {"DEC", SqlTypeKind::kDecimal, 2},
      {"NUMERIC", SqlTypeKind::kDecimal, 2},
      {"CHAR", SqlTypeKind::kChar, 1},
      {"VARCHAR", SqlTypeKind::kVarChar, 1},
      {"STRING", SqlTypeKind::kString, 0},
      {"BINARY", SqlTypeKind::kBinary, 1},
      {"VARBINARY", SqlTypeKind::kVarBinary, 1},
      {"BYTES", SqlTypeKind::kBytes, 0},
      {"DATE", SqlTypeKind::kDate, 0},
      {"TIME", SqlTypeKind::kTime, 1},
      {"TIMESTAMP", SqlTypeKind::kTimestamp, 1},
      {"TIMESTAMP_LTZ", SqlTypeKind::kTimestampLtz, 1},
  };
  auto simple = std::ranges::find(kSimple, name, &Simple::name);
  if (simple != std::end(kSimple)) {
    type.kind = simple->kind;
    if (type.kind == SqlTypeKind::kDouble) AcceptKeyword("PRECISION");
    if (simple->max_params > 0) {
      FLOE_ASSIGN_OR_RETURN(type.params, ParseTypeParams(name, simple->max_params));
    }
    bool without_zone = (type.kind == SqlTypeKind::kTime || type.kind == SqlTypeKind::kTimestamp) &&
                        AcceptKeywords({"WITHOUT", "TIME", "ZONE"});
    if (type.kind == SqlTypeKind::kTimestamp && !without_zone) {
      if (AcceptKeywords({"WITH", "LOCAL", "TIME", "ZONE"})) {
        type.kind = SqlTypeKind::kTimestampLtz;
      } else if (AcceptKeywords({"WITH", "TIME", "ZONE"})) {
        type.kind = SqlTypeKind::kTimestampTz;
      }
    }
  } else if (name == "ARRAY" || name == "MULTISET") {
    type.kind = name == "ARRAY" ? SqlTypeKind::kArray : SqlTypeKind::kMultiset;
    FLOE_RETURN_IF_ERROR(ExpectSymbol("<", fmt::format("after {}", name)));
    FLOE_ASSIGN_OR_RETURN(SqlType element, ParseType());
    type.elements.push_back(std::move(element));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(">", fmt::format("to close {}<", name)));
  } else if (name == "MAP") {
    type.kind = SqlTypeKind::kMap;
    FLOE_RETURN_IF_ERROR(ExpectSymbol("<", "after MAP"));
    FLOE_ASSIGN_OR_RETURN(SqlType key, ParseType());
    FLOE_RETURN_IF_ERROR(ExpectSymbol(",", "after MAP key type"));
    FLOE_ASSIGN_OR_RETURN(SqlType value, ParseType());
    FLOE_RETURN_IF_ERROR(ExpectSymbol(">", "to close MAP<"));
    type.elements.push_back(std::move(key));
    type.elements.push_back(std::move(value));
  } else if (name == "ROW") {
    type.kind = SqlTypeKind::kRow;
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
    type.kind = SqlTypeKind::kInterval;
    FLOE_ASSIGN_OR_RETURN(type.interval, ParseIntervalQualifier());
    if (AcceptKeyword("TO")) {
      FLOE_ASSIGN_OR_RETURN(std::string to, ParseIntervalQualifier());
      type.interval += " TO " + to;
    }
  } else if (name == "NULL") {
    type.kind = SqlTypeKind::kNull;
  } else {
    return ErrorAt(token, fmt::format("unknown type '{}'", token.text));
  }
  if (AcceptKeywords({"NOT", "NULL"})) {
    type.not_null = true;
  } else if (type.kind != SqlTypeKind::kNull) {
    AcceptKeyword("NULL");
  }
  return type;
}

}  // namespace floe::sql::parser_internal
