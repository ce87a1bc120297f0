// ARRAY[a, b, ...] and MAP[k1, v1, k2, v2, ...], Flink's value constructors. The elements (the
// keys, the values) are converted to their common type as Flink's type inference does for them
// (the least restrictive type: INT and DOUBLE meet in DOUBLE, CHAR literals in STRING); a
// constructor value itself is never null, its elements may be. A null MAP key fails the row: an
// Iceberg map (and floe's batch map) has required keys.

#include <fmt/format.h>

#include <algorithm>

#include "floe/batch/value.h"
#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql::scalar {
namespace {

Result<std::vector<ScalarExprPtr>> CommonElements(const Expr& call, std::vector<ScalarExprPtr> args,
                                                  std::string_view what) {
  // Calcite's least restrictive type: unlike IN or COALESCE, a string literal does not take the
  // other elements' type (ARRAY[1, 'a'] is an error, not a failed cast at run time).
  DataTypePtr common = args[0]->type();
  for (const ScalarExprPtr& arg : args) {
    std::optional<DataTypePtr> next = CommonType(common, arg->type());
    if (!next) {
      return std::unexpected(
          ErrorAt(call, fmt::format("{}: {} and {} have no common type", what, SqlTypeName(*common),
                                    SqlTypeName(*arg->type()))));
    }
    common = *next;
  }
  for (ScalarExprPtr& arg : args) {
    if (!SameSqlType(*arg->type(), *common)) {
      FLOE_ASSIGN_OR_RETURN(arg, CastScalar(std::move(arg), common));
    }
  }
  if (IsNullType(*common)) {
    return std::unexpected(
        ErrorAt(call, fmt::format("{} of only NULLs has no element type: CAST one of them", what)));
  }
  return args;
}

Result<ScalarExprPtr> BindArray(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_ASSIGN_OR_RETURN(args, CommonElements(call, std::move(args), "ARRAY[...]"));
  DataTypePtr type = floe::DataType::List(args[0]->type(), AnyNullable(args));
  Kernel kernel = [type](std::span<const Array> columns, int64_t rows) -> Result<Array> {
    std::vector<Value> lists;
    lists.reserve(static_cast<size_t>(rows));
    for (int64_t row = 0; row < rows; ++row) {
      ListValue list;
      list.elements.reserve(columns.size());
      for (const Array& column : columns) list.elements.push_back(GetValue(column, row));
      lists.emplace_back(std::move(list));
    }
    return MakeArray(type, lists);
  };
  return MakeCall(NodeKind::kCall, std::move(args), type, false, TextOf(call), std::move(kernel));
}

Result<ScalarExprPtr> BindMap(const Expr& call, std::vector<ScalarExprPtr> args) {
  if (args.size() % 2 != 0) {
    return std::unexpected(ErrorAt(
        call,
        fmt::format("MAP[...] takes keys and values in pairs, got {} arguments", args.size())));
  }
  std::vector<ScalarExprPtr> keys;
  std::vector<ScalarExprPtr> values;
  for (size_t i = 0; i < args.size(); ++i) (i % 2 == 0 ? keys : values).push_back(args[i]);
  FLOE_ASSIGN_OR_RETURN(keys, CommonElements(call, std::move(keys), "MAP[...] keys"));
  FLOE_ASSIGN_OR_RETURN(values, CommonElements(call, std::move(values), "MAP[...] values"));
  DataTypePtr type = floe::DataType::Map(keys[0]->type(), values[0]->type(), AnyNullable(values));
  std::string text = TextOf(call);
  Kernel kernel = [type, text](std::span<const Array> columns, int64_t rows) -> Result<Array> {
    std::vector<Value> maps;
    maps.reserve(static_cast<size_t>(rows));
    for (int64_t row = 0; row < rows; ++row) {
      MapValue map;
      for (size_t i = 0; i + 1 < columns.size(); i += 2) {
        Value key = GetValue(columns[i], row);
        if (key.is_null()) return InvalidArgument("{}: a MAP key is NULL", text);
        Value value = GetValue(columns[i + 1], row);
        // A later entry with the same key wins, as in Flink.
        auto same =
            std::ranges::find_if(map.entries, [&](const auto& e) { return e.first == key; });
        if (same != map.entries.end()) {
          same->second = std::move(value);
        } else {
          map.entries.emplace_back(std::move(key), std::move(value));
        }
      }
      maps.emplace_back(std::move(map));
    }
    return MakeArray(type, maps);
  };
  std::vector<ScalarExprPtr> children;
  for (size_t i = 0; i < keys.size(); ++i) {
    children.push_back(std::move(keys[i]));
    children.push_back(std::move(values[i]));
  }
  return MakeCall(NodeKind::kCall, std::move(children), type, false, std::move(text),
                  std::move(kernel));
}

constexpr FunctionDef kConstructorFunctions[] = {
    {"ARRAY", 1, -1, BindArray},
    {"MAP", 2, -1, BindMap},
};

}  // namespace

std::span<const FunctionDef> ConstructorFunctions() { return kConstructorFunctions; }

}  // namespace floe::sql::scalar
