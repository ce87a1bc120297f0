#include "floe/util/json.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>

namespace floe {
namespace {

Result<Json> Convert(simdjson::dom::element element) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::NULL_VALUE:
      return Json();
    case element_type::BOOL:
      return Json(bool(element.get_bool().value_unsafe()));
    case element_type::INT64:
      return Json(int64_t(element.get_int64().value_unsafe()));
    case element_type::UINT64: {
      // Above INT64_MAX: Iceberg has no unsigned fields, keep the value as a double like other
      // readers.
      return Json(double(element.get_uint64().value_unsafe()));
    }
    case element_type::DOUBLE:
      return Json(double(element.get_double().value_unsafe()));
    case element_type::STRING:
      return Json(std::string_view(element.get_string().value_unsafe()));
    case element_type::ARRAY: {
      Json::Array array;
      simdjson::dom::array elements = element.get_array().value_unsafe();
      for (simdjson::dom::element child : elements) {
        FLOE_ASSIGN_OR_RETURN(Json value, Convert(child));
        array.push_back(std::move(value));
      }
      return Json(std::move(array));
    }
    case element_type::OBJECT: {
      Json object = Json::MakeObject();
      simdjson::dom::object members = element.get_object().value_unsafe();
      for (simdjson::dom::key_value_pair field : members) {
        FLOE_ASSIGN_OR_RETURN(Json value, Convert(field.value));
        object.Set(std::string_view(field.key), std::move(value));
      }
      return object;
    }
  }
  return InternalError("unknown simdjson element type");
}

void AppendIndent(std::string& out, int depth) {
  out.push_back('\n');
  out.append(static_cast<size_t>(depth) * 2, ' ');
}

void DumpTo(const Json& json, std::string& out, bool pretty, int depth) {
  switch (json.kind()) {
    case Json::Kind::kNull:
      out += "null";
      return;
    case Json::Kind::kBool:
      out += json.as_bool() ? "true" : "false";
      return;
    case Json::Kind::kInt:
      fmt::format_to(std::back_inserter(out), "{}", json.as_int());
      return;
    case Json::Kind::kDouble: {
      double d = json.as_double();
      if (!std::isfinite(d)) {
        // JSON has no NaN or infinity; Iceberg writes them as strings where it needs them.
        out += "null";
      } else if (d == std::trunc(d) && std::fabs(d) < 1e15) {
        fmt::format_to(std::back_inserter(out), "{:.1f}", d);
      } else {
        fmt::format_to(std::back_inserter(out), "{}", d);
      }
      return;
    }
    case Json::Kind::kString:
      AppendJsonString(out, json.as_string());
      return;
    case Json::Kind::kArray: {
      const auto& array = json.as_array();
      out.push_back('[');
      for (size_t i = 0; i < array.size(); ++i) {
        if (i > 0) out.push_back(',');
        if (pretty) AppendIndent(out, depth + 1);
        DumpTo(array[i], out, pretty, depth + 1);
      }
      if (pretty && !array.empty()) AppendIndent(out, depth);
      out.push_back(']');
      return;
    }
    case Json::Kind::kObject: {
      const auto& object = json.as_object();
      out.push_back('{');
      for (size_t i = 0; i < object.size(); ++i) {
        if (i > 0) out.push_back(',');
        if (pretty) AppendIndent(out, depth + 1);
        AppendJsonString(out, object[i].first);
        out += pretty ? ": " : ":";
        DumpTo(object[i].second, out, pretty, depth + 1);
      }
      if (pretty && !object.empty()) AppendIndent(out, depth);
      out.push_back('}');
      return;
    }
  }
}

std::unexpected<Error> WrongKind(std::string_view key, std::string_view expected, const Json& got) {
  return CorruptData("field '{}' must be {}, not {}", key, expected, Json::KindName(got.kind()));
}

}  // namespace

struct JsonParser::Impl {
  simdjson::dom::parser parser;
};

JsonParser::JsonParser() : impl_(std::make_unique<Impl>()) {}
JsonParser::~JsonParser() = default;

Result<Json> JsonParser::Parse(std::string_view text) {
  simdjson::dom::element root;
  auto error = impl_->parser.parse(text.data(), text.size()).get(root);
  if (error) return CorruptData("invalid JSON: {}", simdjson::error_message(error));
  return Convert(root);
}

Status JsonParser::ForEachMember(
    std::string_view text, const std::function<Status(std::string_view, const Json&)>& member) {
  simdjson::dom::element root;
  auto error = impl_->parser.parse(text.data(), text.size()).get(root);
  if (error) return CorruptData("invalid JSON: {}", simdjson::error_message(error));
  if (root.type() != simdjson::dom::element_type::OBJECT) {
    return InvalidArgument("not a JSON object");
  }
  simdjson::dom::object members = root.get_object().value_unsafe();
  for (simdjson::dom::key_value_pair field : members) {
    FLOE_ASSIGN_OR_RETURN(Json value, Convert(field.value));
    FLOE_RETURN_IF_ERROR(member(std::string_view(field.key), value));
  }
  return Ok();
}

Result<Json> Json::Parse(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(text);
  simdjson::dom::element root;
  auto error = parser.parse(padded).get(root);
  if (error) return CorruptData("invalid JSON: {}", simdjson::error_message(error));
  return Convert(root);
}

std::string Json::Dump(bool pretty) const {
  std::string out;
  DumpTo(*this, out, pretty, 0);
  return out;
}

double Json::as_double() const {
  if (is_int()) return static_cast<double>(as_int());
  return std::get<double>(value_);
}

const Json* Json::Find(std::string_view key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : as_object()) {
    if (k == key) return &v;
  }
  return nullptr;
}

Json& Json::Set(std::string_view key, Json value) {
  auto& object = as_object();
  for (auto& [k, v] : object) {
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  }
  object.emplace_back(std::string(key), std::move(value));
  return *this;
}

Json& Json::Push(Json value) {
  as_array().push_back(std::move(value));
  return *this;
}

Result<const Json*> Json::Get(std::string_view key) const {
  if (!is_object()) return CorruptData("expected an object, found {}", KindName(kind()));
  const Json* value = Find(key);
  if (value == nullptr) return CorruptData("missing required field '{}'", key);
  return value;
}

Result<std::string> Json::GetString(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(const Json* value, Get(key));
  if (!value->is_string()) return WrongKind(key, "a string", *value);
  return value->as_string();
}

Result<int64_t> Json::GetInt(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(const Json* value, Get(key));
  if (!value->is_int()) return WrongKind(key, "an integer", *value);
  return value->as_int();
}

Result<bool> Json::GetBool(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(const Json* value, Get(key));
  if (!value->is_bool()) return WrongKind(key, "a boolean", *value);
  return value->as_bool();
}

Result<const Json::Array*> Json::GetArray(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(const Json* value, Get(key));
  if (!value->is_array()) return WrongKind(key, "an array", *value);
  return &value->as_array();
}

Result<std::optional<std::string>> Json::GetOptionalString(std::string_view key) const {
  const Json* value = Find(key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  if (!value->is_string()) return WrongKind(key, "a string", *value);
  return value->as_string();
}

Result<std::optional<int64_t>> Json::GetOptionalInt(std::string_view key) const {
  const Json* value = Find(key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  if (!value->is_int()) return WrongKind(key, "an integer", *value);
  return value->as_int();
}

Result<std::optional<bool>> Json::GetOptionalBool(std::string_view key) const {
  const Json* value = Find(key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  if (!value->is_bool()) return WrongKind(key, "a boolean", *value);
  return value->as_bool();
}

bool operator==(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_int() && b.is_int()) return a.as_int() == b.as_int();
    return a.as_double() == b.as_double();
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Json::Kind::kNull:
      return true;
    case Json::Kind::kBool:
      return a.as_bool() == b.as_bool();
    case Json::Kind::kString:
      return a.as_string() == b.as_string();
    case Json::Kind::kArray:
      return a.as_array() == b.as_array();
    case Json::Kind::kObject: {
      const auto& ao = a.as_object();
      const auto& bo = b.as_object();
      if (ao.size() != bo.size()) return false;
      return std::all_of(ao.begin(), ao.end(), [&](const auto& member) {
        const Json* other = b.Find(member.first);
        return other != nullptr && *other == member.second;
      });
    }
    default:
      return false;
  }
}

std::string_view Json::KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "a boolean";
    case Kind::kInt:
      return "an integer";
    case Kind::kDouble:
      return "a number";
    case Kind::kString:
      return "a string";
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "unknown";
}

void AppendJsonString(std::string& out, std::string_view s) {
  out.push_back('"');
  // Runs of characters that need no escape go in one append.
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
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
        fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

}  // namespace floe
