// Functions of ARRAY and MAP values, with Flink's semantics: CARDINALITY counts elements or
// entries; ELEMENT is the one element of an array (null for an empty one, an error for more than
// one); ARRAY_CONTAINS tests membership (a null needle finds a null element); ARRAY_REVERSE and
// ARRAY_DISTINCT (first occurrences, in order, one null at most) keep the element type;
// ARRAY_POSITION is the 1-based index of the first equal element or 0 (null for a null needle);
// MAP_KEYS, MAP_VALUES and
// MAP_ENTRIES list a map in its entry order. Each is null when its collection argument is.

#include <fmt/format.h>

#include <algorithm>

#include "floe/batch/value.h"
#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql::scalar {
namespace {

Status RequireKind(const Expr& call, const ScalarExprPtr& arg, TypeKind kind, int index) {
  if (arg->type()->kind() == kind || IsNullType(*arg->type())) return {};
  return std::unexpected(ErrorAt(
      call,
      fmt::format("{}: argument {} must be {}, not {}", CallName(call), index + 1,
                  kind == TypeKind::kList ? "an ARRAY" : "a MAP", SqlTypeName(*arg->type()))));
}

Status RequireArray(const Expr& call, const ScalarExprPtr& arg) {
  if (IsNullType(*arg->type())) {
    return std::unexpected(ErrorAt(
        call, fmt::format("{}: a NULL array has no element type; CAST it", CallName(call))));
  }
  return RequireKind(call, arg, TypeKind::kList, 0);
}

// One value per row from a function of the row's argument values (the collection not null).
template <typename F>
Kernel RowKernel(DataTypePtr type, F f) {
  return [type, f](std::span<const Array> columns, int64_t rows) -> Result<Array> {
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(rows));
    for (int64_t row = 0; row < rows; ++row) {
      Value collection = GetValue(columns[0], row);
      if (collection.is_null()) {
        out.emplace_back();
        continue;
      }
      std::vector<Value> rest;
      for (size_t c = 1; c < columns.size(); ++c) rest.push_back(GetValue(columns[c], row));
      FLOE_ASSIGN_OR_RETURN(Value value, f(collection, rest));
      out.push_back(std::move(value));
    }
    return MakeArray(type, out);
  };
}

Result<ScalarExprPtr> BindCardinality(const Expr& call, std::vector<ScalarExprPtr> args) {
  TypeKind kind = args[0]->type()->kind();
  if (kind != TypeKind::kList && kind != TypeKind::kMap) {
    return std::unexpected(ErrorAt(call, fmt::format("CARDINALITY takes an ARRAY or a MAP, not {}",
                                                     SqlTypeName(*args[0]->type()))));
  }
  DataTypePtr type = floe::DataType::Int32();
  bool nullable = args[0]->nullable();
  Kernel kernel = RowKernel(type, [](const Value& v, const std::vector<Value>&) -> Result<Value> {
    size_t n =
        v.is<ListValue>() ? v.get<ListValue>().elements.size() : v.get<MapValue>().entries.size();
    return Value(static_cast<int32_t>(n));
  });
  return MakeCall(NodeKind::kCall, std::move(args), type, nullable, TextOf(call),
                  std::move(kernel));
}

Result<ScalarExprPtr> BindElement(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_RETURN_IF_ERROR(RequireArray(call, args[0]));
  DataTypePtr type = args[0]->type()->field(0).type;
  std::string text = TextOf(call);
  Kernel kernel =
      RowKernel(type, [text](const Value& v, const std::vector<Value>&) -> Result<Value> {
        const auto& elements = v.get<ListValue>().elements;
        if (elements.size() > 1) {
          return InvalidArgument("{}: the array has {} elements; ELEMENT takes one", text,
                                 elements.size());
        }
        return elements.empty() ? Value() : elements[0];
      });
  return MakeCall(NodeKind::kCall, std::move(args), type, true, TextOf(call), std::move(kernel));
}

// The needle (args[1]) cast to the array's element type; an error when they have no common type.
Result<std::vector<ScalarExprPtr>> ElementArgs(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_RETURN_IF_ERROR(RequireArray(call, args[0]));
  const DataTypePtr& element = args[0]->type()->field(0).type;
  if (!SameSqlType(*args[1]->type(), *element)) {
    std::optional<DataTypePtr> common = CommonType(element, args[1]->type());
    if (!common || !SameSqlType(**common, *element)) {
      return std::unexpected(ErrorAt(
          call, fmt::format("{}: {} is not comparable with the array's elements ({})",
                            CallName(call), SqlTypeName(*args[1]->type()), SqlTypeName(*element))));
    }
    FLOE_ASSIGN_OR_RETURN(args[1], CastScalar(std::move(args[1]), element));
  }
  return args;
}

Result<ScalarExprPtr> BindArrayContains(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_ASSIGN_OR_RETURN(args, ElementArgs(call, std::move(args)));
  DataTypePtr type = floe::DataType::Bool();
  bool nullable = args[0]->nullable();
  Kernel kernel = RowKernel(type, [](const Value& v, const std::vector<Value>& rest) {
    const auto& elements = v.get<ListValue>().elements;
    return Result<Value>(
        Value(std::find(elements.begin(), elements.end(), rest[0]) != elements.end()));
  });
  return MakeCall(NodeKind::kCall, std::move(args), type, nullable, TextOf(call),
                  std::move(kernel));
}

Result<ScalarExprPtr> BindArrayPosition(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_ASSIGN_OR_RETURN(args, ElementArgs(call, std::move(args)));
  DataTypePtr type = floe::DataType::Int32();
  bool nullable = args[0]->nullable() || args[1]->nullable();
  Kernel kernel = RowKernel(type, [](const Value& v, const std::vector<Value>& rest) {
    if (rest[0].is_null()) return Result<Value>(Value());
    const auto& elements = v.get<ListValue>().elements;
    auto found = std::find(elements.begin(), elements.end(), rest[0]);
    int32_t position =
        found == elements.end() ? 0 : static_cast<int32_t>(found - elements.begin()) + 1;
    return Result<Value>(Value(position));
  });
  return MakeCall(NodeKind::kCall, std::move(args), type, nullable, TextOf(call),
                  std::move(kernel));
}

// ARRAY_REVERSE and ARRAY_DISTINCT: an array of the argument's type.
template <bool kDistinct>
Result<ScalarExprPtr> BindArrayReorder(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_RETURN_IF_ERROR(RequireArray(call, args[0]));
  DataTypePtr type = args[0]->type();
  bool nullable = args[0]->nullable();
  Kernel kernel = RowKernel(type, [](const Value& v, const std::vector<Value>&) -> Result<Value> {
    ListValue out;
    const auto& elements = v.get<ListValue>().elements;
    if constexpr (kDistinct) {
      for (const Value& element : elements) {
        if (std::find(out.elements.begin(), out.elements.end(), element) == out.elements.end()) {
          out.elements.push_back(element);
        }
      }
    } else {
      out.elements.assign(elements.rbegin(), elements.rend());
    }
    return Value(std::move(out));
  });
  return MakeCall(NodeKind::kCall, std::move(args), type, nullable, TextOf(call),
                  std::move(kernel));
}

enum class MapPart : unsigned char { kKeys, kValues, kEntries };

template <MapPart kPart>
Result<ScalarExprPtr> BindMapPart(const Expr& call, std::vector<ScalarExprPtr> args) {
  if (IsNullType(*args[0]->type())) {
    return std::unexpected(
        ErrorAt(call, fmt::format("{}: a NULL map has no type; CAST it", CallName(call))));
  }
  FLOE_RETURN_IF_ERROR(RequireKind(call, args[0], TypeKind::kMap, 0));
  const DataType& map = *args[0]->type();
  DataTypePtr type;
  if constexpr (kPart == MapPart::kKeys) {
    type = floe::DataType::List(map.key_field().type, false);
  } else if constexpr (kPart == MapPart::kValues) {
    type = floe::DataType::List(map.item_field().type, map.item_field().nullable);
  } else {
    Field key{.name = "key", .type = map.key_field().type, .nullable = false};
    Field value{
        .name = "value", .type = map.item_field().type, .nullable = map.item_field().nullable};
    type = floe::DataType::List(floe::DataType::Struct({key, value}), false);
  }
  bool nullable = args[0]->nullable();
  Kernel kernel = RowKernel(type, [](const Value& v, const std::vector<Value>&) -> Result<Value> {
    ListValue out;
    for (const auto& [key, value] : v.get<MapValue>().entries) {
      if constexpr (kPart == MapPart::kKeys) {
        out.elements.push_back(key);
      } else if constexpr (kPart == MapPart::kValues) {
        out.elements.push_back(value);
      } else {
        out.elements.emplace_back(StructValue{.fields = {{"key", key}, {"value", value}}});
      }
    }
    return Value(std::move(out));
  });
  return MakeCall(NodeKind::kCall, std::move(args), type, nullable, TextOf(call),
                  std::move(kernel));
}

constexpr FunctionDef kCollectionFunctions[] = {
    {"CARDINALITY", 1, 1, BindCardinality},
    {"ELEMENT", 1, 1, BindElement},
    {"ARRAY_CONTAINS", 2, 2, BindArrayContains},
    {"ARRAY_POSITION", 2, 2, BindArrayPosition},
    {"ARRAY_REVERSE", 1, 1, BindArrayReorder<false>},
    {"ARRAY_DISTINCT", 1, 1, BindArrayReorder<true>},
    {"MAP_KEYS", 1, 1, BindMapPart<MapPart::kKeys>},
    {"MAP_VALUES", 1, 1, BindMapPart<MapPart::kValues>},
    {"MAP_ENTRIES", 1, 1, BindMapPart<MapPart::kEntries>},
};

}  // namespace

std::span<const FunctionDef> CollectionFunctions() { return kCollectionFunctions; }

}  // namespace floe::sql::scalar
