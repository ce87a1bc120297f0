#pragma once

// A small JSON document tree: what table metadata, schemas, partition specs and CLI output are read
// from and written to. Objects keep their keys in document order, so what floe writes reads like
// the spec's examples. Parsing is done by simdjson, which stays out of this header.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "floe/util/error.h"

namespace floe {

class Json {
 public:
  enum class Kind : unsigned char { kNull, kBool, kInt, kDouble, kString, kArray, kObject };
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;  // null
  Json(std::nullptr_t) {}
  Json(bool v) : value_(v) {}
  Json(int v) : value_(int64_t{v}) {}
  Json(int64_t v) : value_(v) {}
  Json(double v) : value_(v) {}
  Json(std::string v) : value_(std::move(v)) {}
  Json(std::string_view v) : value_(std::string(v)) {}
  Json(const char* v) : value_(std::string(v)) {}
  Json(Array v) : value_(std::move(v)) {}
  Json(Object v) : value_(std::move(v)) {}

  static Json MakeArray() { return Json(Array{}); }
  static Json MakeObject() { return Json(Object{}); }

  // Parses one JSON document. Errors are kCorruptData with the byte offset simdjson reports.
  static Result<Json> Parse(std::string_view text);

  // Compact by default; pretty = two-space indentation, one member a line.
  std::string Dump(bool pretty = false) const;

  Kind kind() const { return static_cast<Kind>(value_.index()); }
  bool is_null() const { return kind() == Kind::kNull; }
  bool is_bool() const { return kind() == Kind::kBool; }
  bool is_int() const { return kind() == Kind::kInt; }
  bool is_number() const { return kind() == Kind::kInt || kind() == Kind::kDouble; }
  bool is_string() const { return kind() == Kind::kString; }
  bool is_array() const { return kind() == Kind::kArray; }
  bool is_object() const { return kind() == Kind::kObject; }

  // Unchecked accessors: call only after checking the kind.
  bool as_bool() const { return std::get<bool>(value_); }
  int64_t as_int() const { return std::get<int64_t>(value_); }
  double as_double() const;  // ints convert
  const std::string& as_string() const { return std::get<std::string>(value_); }
  const Array& as_array() const { return std::get<Array>(value_); }
  Array& as_array() { return std::get<Array>(value_); }
  const Object& as_object() const { return std::get<Object>(value_); }
  Object& as_object() { return std::get<Object>(value_); }

  // Object member lookup; nullptr when absent or when this is not an object.
  const Json* Find(std::string_view key) const;
  // Appends (or replaces) a member of an object; returns *this for chaining.
  Json& Set(std::string_view key, Json value);
  // Appends to an array.
  Json& Push(Json value);

  // Checked field accessors for decoding objects. A missing required field or a wrong kind gives a
  // kCorruptData error naming the field; callers add where the object came from with AddContext.
  Result<const Json*> Get(std::string_view key) const;
  Result<std::string> GetString(std::string_view key) const;
  Result<int64_t> GetInt(std::string_view key) const;
  Result<bool> GetBool(std::string_view key) const;
  Result<const Array*> GetArray(std::string_view key) const;
  Result<std::optional<std::string>> GetOptionalString(std::string_view key) const;
  Result<std::optional<int64_t>> GetOptionalInt(std::string_view key) const;
  Result<std::optional<bool>> GetOptionalBool(std::string_view key) const;

  // Structural equality: objects compare as unordered maps, numbers by value (1 == 1.0).
  friend bool operator==(const Json& a, const Json& b);

  // The kind as a word, for error messages ("string", "object"...).
  static std::string_view KindName(Kind kind);

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, Array, Object> value_;
};

// Parses many documents one after another with one simdjson parser, whose buffers it keeps: for
// hot loops over small documents (a Kafka topic's records), where Json::Parse would allocate a
// parser and a padded copy for each. Errors are Json::Parse's.
class JsonParser {
 public:
  JsonParser();
  ~JsonParser();
  JsonParser(const JsonParser&) = delete;
  JsonParser& operator=(const JsonParser&) = delete;

  Result<Json> Parse(std::string_view text);
  // Calls `member` with the key and value of each member of the object `text` holds, in document
  // order, without building the object; stops at its first error. kCorruptData for text that is
  // not JSON, kInvalidArgument for a document that is not an object.
  Status ForEachMember(std::string_view text,
                       const std::function<Status(std::string_view, const Json&)>& member);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Appends s to out as a quoted JSON string with the escapes JSON requires.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace floe
