// JSON_EXISTS, JSON_VALUE and JSON_QUERY with SQL/JSON paths, in their default behaviours (no
// RETURNING, ON EMPTY or ON ERROR clauses): a path is `[lax|strict] $` then `.key`, `."key"`,
// `[n]` or `[*]` steps. Lax mode (the default) finds nothing where a step does not apply; strict
// mode makes that an error, and an error (bad JSON, a bad path) gives the function's ON ERROR
// default: FALSE for JSON_EXISTS, NULL for the others. JSON_VALUE gives a scalar as text (NULL
// for an object or an array), JSON_QUERY an object or an array as compact JSON text (NULL for a
// scalar, as WITHOUT WRAPPER does).

#include <fmt/core.h>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/rows_internal.h"
#include "floe/util/json.h"

namespace floe::sql::scalar {
namespace {

using Args = std::vector<ScalarExprPtr>;

struct PathStep {
  enum class Kind { kKey, kIndex, kAll };
  Kind kind;
  std::string key;
  int64_t index = 0;
};

struct JsonPath {
  bool strict = false;
  std::vector<PathStep> steps;
};

Result<JsonPath> ParsePath(std::string_view text) {
  JsonPath path;
  auto skip_spaces = [&] {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  };
  skip_spaces();
  if (text.starts_with("strict ")) {
    path.strict = true;
    text.remove_prefix(7);
  } else if (text.starts_with("lax ")) {
    text.remove_prefix(4);
  }
  skip_spaces();
  if (!text.starts_with('$')) return InvalidArgument("a JSON path starts with '$'");
  text.remove_prefix(1);
  while (!text.empty()) {
    if (text.front() == '.') {
      text.remove_prefix(1);
      PathStep step{PathStep::Kind::kKey, "", 0};
      if (text.starts_with('"')) {
        const size_t end = text.find('"', 1);
        if (end == std::string_view::npos) return InvalidArgument("an unclosed quoted key");
        step.key = std::string(text.substr(1, end - 1));
        text.remove_prefix(end + 1);
      } else if (text.starts_with('*')) {
        step.kind = PathStep::Kind::kAll;
        text.remove_prefix(1);
      } else {
        size_t end = 0;
        while (end < text.size() && text[end] != '.' && text[end] != '[' && text[end] != ' ') {
          ++end;
        }
        if (end == 0) return InvalidArgument("a key after '.'");
        step.key = std::string(text.substr(0, end));
        text.remove_prefix(end);
      }
      path.steps.push_back(std::move(step));
    } else if (text.front() == '[') {
      const size_t end = text.find(']');
      if (end == std::string_view::npos) return InvalidArgument("an unclosed '['");
      std::string_view inside = text.substr(1, end - 1);
      text.remove_prefix(end + 1);
      if (inside == "*") {
        path.steps.push_back({PathStep::Kind::kAll, "", 0});
        continue;
      }
      int64_t index = 0;
      if (inside.empty()) return InvalidArgument("an array index in '[]'");
      for (char c : inside) {
        if (c < '0' || c > '9') return InvalidArgument("an array index, not '{}'", inside);
        index = index * 10 + (c - '0');
      }
      path.steps.push_back({PathStep::Kind::kIndex, "", index});
    } else {
      return InvalidArgument("unexpected '{}'", text.substr(0, 1));
    }
  }
  return path;
}

// The values the path selects; an error where strict mode finds a step that does not apply.
Status Select(const Json& value, const JsonPath& path, size_t step, std::vector<const Json*>& out) {
  if (step == path.steps.size()) {
    out.push_back(&value);
    return Ok();
  }
  const PathStep& s = path.steps[step];
  switch (s.kind) {
    case PathStep::Kind::kKey:
      if (value.is_object()) {
        if (const Json* member = value.Find(s.key)) return Select(*member, path, step + 1, out);
        if (path.strict) return InvalidArgument("no member '{}'", s.key);
        return Ok();
      }
      break;
    case PathStep::Kind::kIndex:
      if (value.is_array()) {
        const auto& items = value.as_array();
        if (s.index < static_cast<int64_t>(items.size())) {
          return Select(items[s.index], path, step + 1, out);
        }
        if (path.strict) return InvalidArgument("no element {}", s.index);
        return Ok();
      }
      break;
    case PathStep::Kind::kAll:
      if (value.is_array()) {
        for (const Json& item : value.as_array()) {
          FLOE_RETURN_IF_ERROR(Select(item, path, step + 1, out));
        }
        return Ok();
      }
      if (value.is_object()) {
        for (const auto& member : value.as_object()) {
          FLOE_RETURN_IF_ERROR(Select(member.second, path, step + 1, out));
        }
        return Ok();
      }
      break;
  }
  if (path.strict)
    return InvalidArgument("the step does not apply to a {}", Json::KindName(value.kind()));
  return Ok();
}

// The values at the path in the document, or an error (bad JSON, strict mode).
Result<std::vector<const Json*>> Query(const Json& document, const JsonPath& path) {
  std::vector<const Json*> out;
  FLOE_RETURN_IF_ERROR(Select(document, path, 0, out));
  return out;
}

// A constant path is parsed once at bind time (a bad one is an error there); a column of paths
// per row, where a bad path is the ON ERROR default.
struct PathCache {
  std::string text;
  std::optional<Result<JsonPath>> parsed;
  const Result<JsonPath>& Get(std::string_view path) {
    if (!parsed || text != path) {
      text = path;
      parsed = ParsePath(path);
    }
    return *parsed;
  }
};

enum class Function { kExists, kValue, kQuery };

template <Function kFunction>
Result<ScalarExprPtr> BindJson(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], StringArg(call, std::move(args[1]), 1));
  if (std::optional<Value> path = args[1]->constant(); path && !path->is_null()) {
    Result<JsonPath> parsed = ParsePath(path->get<std::string>());
    if (!parsed) {
      return std::unexpected(
          ErrorAt(call, fmt::format("{}: invalid JSON path '{}': {}", CallName(call),
                                    path->get<std::string>(), parsed.error().message())));
    }
  }
  // Each row: the selected values, or nothing when the document or the path is bad.
  auto select = [](std::span<const Array> a, int64_t i, PathCache& paths,
                   std::optional<Json>& document) -> std::optional<std::vector<const Json*>> {
    const Result<JsonPath>& path = paths.Get(a[1].GetView(i));
    if (!path) return std::nullopt;
    Result<Json> parsed = Json::Parse(a[0].GetView(i));
    if (!parsed) return std::nullopt;
    document = *std::move(parsed);
    Result<std::vector<const Json*>> found = Query(*document, *path);
    if (!found) return std::nullopt;
    return *std::move(found);
  };
  const std::string text = TextOf(call);
  if constexpr (kFunction == Function::kExists) {
    const bool nullable = AnyNullable(args);
    return MakeCall(NodeKind::kCall, std::move(args), DataType::Bool(), nullable, text,
                    [select](std::span<const Array> a, int64_t n) {
                      PathCache paths;
                      return MapBools(a, n, [&](int64_t i, bool& out) {
                        std::optional<Json> document;
                        auto found = select(a, i, paths, document);
                        out = found && !found->empty();
                        return true;
                      });
                    });
  } else {
    return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), true, text,
                    [select](std::span<const Array> a, int64_t n) {
                      PathCache paths;
                      return MapStrings(a, n, [&](int64_t i, std::string& out) {
                        std::optional<Json> document;
                        auto found = select(a, i, paths, document);
                        if (!found || found->size() != 1) return false;
                        const Json& value = *(*found)[0];
                        const bool container = value.is_array() || value.is_object();
                        if (kFunction == Function::kQuery) {
                          if (!container) return false;
                          out = value.Dump();
                          return true;
                        }
                        if (container || value.is_null()) return false;
                        out = value.is_string() ? value.as_string() : value.Dump();
                        return true;
                      });
                    });
  }
}

constexpr FunctionDef kJsonFunctions[] = {
    {"JSON_EXISTS", 2, 2, BindJson<Function::kExists>},
    {"JSON_VALUE", 2, 2, BindJson<Function::kValue>},
    {"JSON_QUERY", 2, 2, BindJson<Function::kQuery>},
};

}  // namespace

std::span<const FunctionDef> JsonFunctions() { return kJsonFunctions; }

}  // namespace floe::sql::scalar
