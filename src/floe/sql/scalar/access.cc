// Access into nested values: `m['k']` (a map's value for a key), `a[i]` (an array's element,
// 1-based), and `r.f` (a ROW field). A missing key, an index out of range or a null container give
// null, as in Flink.

#include <fmt/format.h>

#include "floe/batch/value.h"
#include "floe/sql/scalar/access_internal.h"
#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/strings.h"

namespace floe::sql::scalar {
namespace {

// Row r of a one-row constant argument is row 0.
int64_t RowOf(const Array& array, int64_t row) { return array.length() == 1 ? 0 : row; }

Result<Array> MapLookup(const DataTypePtr& type, const Array& maps, const Array& keys,
                        int64_t rows) {
  std::vector<Value> out(static_cast<size_t>(rows));
  for (int64_t row = 0; row < rows; ++row) {
    int64_t m = RowOf(maps, row);
    int64_t k = RowOf(keys, row);
    if (maps.IsNull(m) || keys.IsNull(k)) continue;
    Value key = GetValue(keys, k);
    Value map = GetValue(maps, m);
    for (const auto& [entry_key, entry_value] : map.get<MapValue>().entries) {
      if (entry_key == key) {
        out[row] = entry_value;
        break;
      }
    }
  }
  return MakeArray(type, out);
}

Result<Array> ArrayElement(const DataTypePtr& type, const Array& lists, const Array& indexes,
                           int64_t rows) {
  std::vector<Value> out(static_cast<size_t>(rows));
  for (int64_t row = 0; row < rows; ++row) {
    int64_t l = RowOf(lists, row);
    int64_t i = RowOf(indexes, row);
    if (lists.IsNull(l) || indexes.IsNull(i)) continue;
    int64_t index = GetValue(indexes, i).get<int64_t>();
    const Value list = GetValue(lists, l);
    const std::vector<Value>& elements = list.get<ListValue>().elements;
    if (index >= 1 && index <= static_cast<int64_t>(elements.size()))
      out[row] = elements[index - 1];
  }
  return MakeArray(type, out);
}

}  // namespace

Result<ScalarExprPtr> BindSubscript(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr base, Bind(*expr.args[0], scope));
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr index, Bind(*expr.args[1], scope));
  const DataTypePtr base_type = base->type();
  std::string text = TextOf(expr);
  if (base_type->kind() == TypeKind::kMap) {
    const DataTypePtr key_type = base_type->key_field().type;
    const DataTypePtr value_type = base_type->item_field().type;
    Result<ScalarExprPtr> key = Coerce(index, key_type);
    if (!key) {
      return std::unexpected(
          ErrorAt(expr, fmt::format("{}: a key of {} cannot be {}", text, SqlTypeName(*base_type),
                                    SqlTypeName(*index->type()))));
    }
    return MakeCall(NodeKind::kCall, {base, *key}, value_type, true, text,
                    [value_type](std::span<const Array> args, int64_t rows) {
                      return MapLookup(value_type, args[0], args[1], rows);
                    },
                    {.scalar_constants = true});
  }
  if (base_type->kind() == TypeKind::kList) {
    const DataTypePtr element_type = base_type->field(0).type;
    Result<ScalarExprPtr> position = Coerce(index, DataType::Int64());
    if (!position || !IsInteger(*index->type())) {
      return std::unexpected(
          ErrorAt(expr, fmt::format("{}: an array index must be an integer, not {}", text,
                                    SqlTypeName(*index->type()))));
    }
    return MakeCall(NodeKind::kCall, {base, *position}, element_type, true, text,
                    [element_type](std::span<const Array> args, int64_t rows) {
                      return ArrayElement(element_type, args[0], args[1], rows);
                    },
                    {.scalar_constants = true});
  }
  return std::unexpected(
      ErrorAt(expr, fmt::format("{}: only a MAP or an ARRAY takes [...], not {}",
                                TextOf(*expr.args[0]), SqlTypeName(*base_type))));
}

Result<ScalarExprPtr> MakeFieldAccess(ScalarExprPtr base, std::string_view field, Position position,
                                      std::string text) {
  const DataTypePtr base_type = base->type();
  if (base_type->kind() != TypeKind::kStruct) {
    return InvalidArgument("{}", AtPosition(position, fmt::format("{}: {} has no fields", text,
                                                                  SqlTypeName(*base_type))));
  }
  int index = -1;
  for (int exact = 1; exact >= 0 && index < 0; --exact) {
    for (int i = 0; i < base_type->num_fields(); ++i) {
      const std::string& name = base_type->field(i).name;
      if (exact ? name == field : EqualsIgnoreCase(name, field)) {
        index = i;
        break;
      }
    }
  }
  if (index < 0) {
    return InvalidArgument("{}", AtPosition(position, fmt::format("{}: {} has no field '{}'", text,
                                                                  SqlTypeName(*base_type), field)));
  }
  const DataTypePtr type = base_type->field(index).type;
  const bool nullable = base->nullable() || base_type->field(index).nullable;
  return MakeCall(NodeKind::kCall, {base}, type, nullable, std::move(text),
                  [index, type](std::span<const Array> args, int64_t rows) -> Result<Array> {
                    const Array& structs = args[0];
                    if (structs.null_count() == 0) return structs.field(index);
                    std::vector<Value> out(static_cast<size_t>(rows));
                    Array values = structs.field(index);
                    for (int64_t row = 0; row < rows; ++row) {
                      if (structs.IsValid(row)) out[row] = GetValue(values, row);
                    }
                    return MakeArray(type, out);
                  });
}

Result<ScalarExprPtr> BindFieldAccess(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr base, Bind(*expr.args[0], scope));
  return MakeFieldAccess(std::move(base), expr.text, expr.position, TextOf(expr));
}

}  // namespace floe::sql::scalar
