#pragma once

// The scalar function table: each family (string, math, date/time, conditional...) lists its
// functions with their argument counts and a bind function that checks the argument types and
// builds the node. BindFunction looks a call up here by its upper-case name.

#include <span>
#include <string_view>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/syntax/ast.h"

namespace floe::sql::scalar {

// Binds a call whose arguments are bound already (`call` is the parsed call, for its text and
// position; when the function takes a unit keyword first, args[0] is null and the unit is
// call.args[0]).
using FunctionBinder = Result<ScalarExprPtr> (*)(const Expr& call, std::vector<ScalarExprPtr> args);

struct FunctionDef {
  std::string_view name;
  int min_args;
  int max_args;  // -1: any number
  FunctionBinder bind;
  bool unit_first = false;
};

// Argument checks for bind functions: the argument converted to the type the kernel reads, or
// an error at the call naming the function, the argument's position and its type. NULL passes.
Result<ScalarExprPtr> StringArg(const Expr& call, ScalarExprPtr arg, int index);
Result<ScalarExprPtr> IntegerArg(const Expr& call, ScalarExprPtr arg, int index);  // -> BIGINT
Result<ScalarExprPtr> DoubleArg(const Expr& call, ScalarExprPtr arg, int index);   // -> DOUBLE
// The function's name as written in upper case, and its text.
std::string CallName(const Expr& call);

std::span<const FunctionDef> StringFunctions();
std::span<const FunctionDef> MathFunctions();
std::span<const FunctionDef> DateTimeFunctions();
std::span<const FunctionDef> ConditionalFunctions();
std::span<const FunctionDef> ConstructorFunctions();      // ARRAY[...], MAP[...]
std::span<const FunctionDef> EncodingFunctions();         // hashes, base64, HEX, BIN
std::span<const FunctionDef> JsonFunctions();             // JSON_EXISTS, JSON_VALUE, JSON_QUERY
std::span<const FunctionDef> CollectionFunctions();       // CARDINALITY, ELEMENT, ARRAY_*, MAP_*
std::span<const FunctionDef> JsonConstructorFunctions();  // JSON_OBJECT, JSON_ARRAY
std::span<const FunctionDef> UrlFunctions();              // URL_ENCODE, URL_DECODE, PARSE_URL

}  // namespace floe::sql::scalar
