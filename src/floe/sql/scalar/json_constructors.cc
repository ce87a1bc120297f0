// JSON_OBJECT and JSON_ARRAY, Flink's JSON constructors: the text of a JSON object (keys, then
// values) or array, without spaces, as STRING NOT NULL. Strings are JSON strings, numbers and
// booleans JSON values (DOUBLE as Java prints it), dates and times strings of their SQL text, and a
// value that is itself a JSON_OBJECT or JSON_ARRAY call is nested as JSON, not as a string. A NULL
// value is `null` (NULL ON NULL, JSON_OBJECT's default) or left out (ABSENT ON NULL, JSON_ARRAY's
// default). Keys must be strings that are not NULL; other value types (ARRAY, MAP, ROW, BINARY) are
// refused at the call.

#include <fmt/format.h>

#include <iterator>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/strings.h"

namespace floe::sql::scalar {
namespace {

void AppendJsonString(std::string& out, std::string_view text) {
  out += '"';
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// How one argument becomes JSON.
enum class JsonForm : unsigned char { kRaw, kString, kNumber, kBoolean, kQuotedText };

bool IsJsonConstructor(const Expr& expr) {
  if (expr.kind != ExprKind::kFunction || expr.name.size() != 1) return false;
  std::string name = AsciiUpper(expr.name[0]);
  return name == "JSON_OBJECT" || name == "JSON_ARRAY";
}

Result<JsonForm> FormOf(const Expr& call, const Expr& arg, const DataType& type) {
  if (IsJsonConstructor(arg)) return JsonForm::kRaw;
  if (IsString(type)) return JsonForm::kString;
  if (IsNumeric(type)) return JsonForm::kNumber;
  if (IsNullType(type)) return JsonForm::kString;
  switch (type.kind()) {
    case TypeKind::kBool:
      return JsonForm::kBoolean;
    case TypeKind::kDate32:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      return JsonForm::kQuotedText;
    default:
      return std::unexpected(
          ErrorAt(call, fmt::format("{}: values of type {} are not supported yet", CallName(call),
                                    SqlTypeName(type))));
  }
}

void AppendJsonValue(std::string& out, const Array& column, int64_t row, const DataType& type,
                     JsonForm form) {
  switch (form) {
    case JsonForm::kRaw:
      out += column.GetView(row);
      return;
    case JsonForm::kString:
      AppendJsonString(out, column.GetView(row));
      return;
    case JsonForm::kBoolean:
      out += GetValue(column, row).get<bool>() ? "true" : "false";
      return;
    case JsonForm::kNumber:
      out += FormatCell(column, row, type);
      return;
    case JsonForm::kQuotedText:
      AppendJsonString(out, FormatCell(column, row, type));
      return;
  }
}

struct JsonArgs {
  std::vector<JsonForm> forms;
  std::vector<DataTypePtr> types;
  bool absent_on_null = false;
};

Result<JsonArgs> PrepareArgs(const Expr& call, const std::vector<ScalarExprPtr>& args,
                             bool absent_by_default) {
  JsonArgs out;
  out.absent_on_null = call.op.empty() ? absent_by_default : call.op == "ABSENT ON NULL";
  for (size_t i = 0; i < args.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(JsonForm form, FormOf(call, *call.args[i], *args[i]->type()));
    out.forms.push_back(form);
    out.types.push_back(args[i]->type());
  }
  return out;
}

Result<ScalarExprPtr> BindJsonObject(const Expr& call, std::vector<ScalarExprPtr> args) {
  if (args.size() % 2 != 0) {
    return std::unexpected(ErrorAt(call, "JSON_OBJECT takes KEY ... VALUE ... pairs"));
  }
  for (size_t i = 0; i < args.size(); i += 2) {
    if (!IsString(*args[i]->type())) {
      return std::unexpected(
          ErrorAt(call, fmt::format("JSON_OBJECT: key {} must be a STRING, not {}", i / 2 + 1,
                                    SqlTypeName(*args[i]->type()))));
    }
  }
  FLOE_ASSIGN_OR_RETURN(JsonArgs json, PrepareArgs(call, args, false));
  std::string text = TextOf(call);
  Kernel kernel = [json, text](std::span<const Array> columns, int64_t rows) -> Result<Array> {
    StringBuilder builder(DataType::String());
    std::string out;
    for (int64_t row = 0; row < rows; ++row) {
      out.assign(1, '{');
      bool first = true;
      for (size_t i = 0; i + 1 < columns.size(); i += 2) {
        if (columns[i].IsNull(row)) {
          return InvalidArgument("{}: key {} is NULL; JSON object keys must not be", text,
                                 i / 2 + 1);
        }
        const bool null_value = columns[i + 1].IsNull(row);
        if (null_value && json.absent_on_null) continue;
        if (!first) out += ',';
        first = false;
        AppendJsonString(out, columns[i].GetView(row));
        out += ':';
        if (null_value) {
          out += "null";
        } else {
          AppendJsonValue(out, columns[i + 1], row, *json.types[i + 1], json.forms[i + 1]);
        }
      }
      out += '}';
      builder.Append(out);
    }
    return builder.Finish();
  };
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), false, TextOf(call),
                  std::move(kernel));
}

Result<ScalarExprPtr> BindJsonArray(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_ASSIGN_OR_RETURN(JsonArgs json, PrepareArgs(call, args, true));
  Kernel kernel = [json](std::span<const Array> columns, int64_t rows) -> Result<Array> {
    StringBuilder builder(DataType::String());
    std::string out;
    for (int64_t row = 0; row < rows; ++row) {
      out.assign(1, '[');
      bool first = true;
      for (size_t i = 0; i < columns.size(); ++i) {
        const bool null_value = columns[i].IsNull(row);
        if (null_value && json.absent_on_null) continue;
        if (!first) out += ',';
        first = false;
        if (null_value) {
          out += "null";
        } else {
          AppendJsonValue(out, columns[i], row, *json.types[i], json.forms[i]);
        }
      }
      out += ']';
      builder.Append(out);
    }
    return builder.Finish();
  };
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), false, TextOf(call),
                  std::move(kernel));
}

constexpr FunctionDef kJsonConstructors[] = {
    {"JSON_OBJECT", 0, -1, BindJsonObject},
    {"JSON_ARRAY", 0, -1, BindJsonArray},
};

}  // namespace

std::span<const FunctionDef> JsonConstructorFunctions() { return kJsonConstructors; }

}  // namespace floe::sql::scalar
