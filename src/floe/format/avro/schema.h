#pragma once

// Avro schemas: the parsed form of an Avro schema JSON document. A Schema owns a graph of Nodes;
// named types referenced by name (including recursively) point at the same Node, so the graph may
// be cyclic and Nodes are only ever borrowed (const Node*) from the Schema that owns them.
//
// Parsing rejects what the Avro specification forbids (unknown types, missing names/sizes/symbols,
// invalid names, undefined or duplicate names, nested or ambiguous unions) with kInvalidArgument
// errors naming the path of the problem. Attributes the specification does not define (field-id,
// element-id, adjust-to-utc, ...) are kept in document order and written back. Invalid logical
// types are ignored as the specification requires: the node keeps its underlying type.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe::avro {

enum class Type : uint8_t {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

enum class LogicalType : uint8_t {
  kNone,
  kDecimal,               // bytes or fixed: two's-complement big-endian unscaled value
  kUuid,                  // string, or fixed(16)
  kDate,                  // int: days since 1970-01-01
  kTimeMillis,            // int
  kTimeMicros,            // long
  kTimestampMillis,       // long, UTC
  kTimestampMicros,       // long, UTC
  kTimestampNanos,        // long, UTC
  kLocalTimestampMillis,  // long, no time zone
  kLocalTimestampMicros,  // long
  kLocalTimestampNanos,   // long
  kDuration,              // fixed(12): months, days, millis as little-endian uint32
};

std::string_view TypeName(Type type);
std::string_view LogicalTypeName(LogicalType type);  // "" for kNone

struct Node;

struct Field {
  std::string name;
  const Node* type = nullptr;
  std::optional<Json> default_value;
  std::vector<std::string> aliases;
  std::optional<std::string> doc;
  Json::Object attributes;          // everything else, e.g. "field-id", "order"
  std::optional<int32_t> field_id;  // attributes["field-id"] when it is an int32 (Iceberg)
};

struct Node {
  Type type = Type::kNull;
  LogicalType logical_type = LogicalType::kNone;

  // Named types (record, enum, fixed).
  std::string full_name;             // "ns.Name", or "Name" in the null namespace
  std::vector<std::string> aliases;  // full names
  std::optional<std::string> doc;

  std::vector<Field> fields;                // record
  std::vector<std::string> symbols;         // enum
  std::optional<std::string> enum_default;  // enum
  const Node* items = nullptr;              // array
  const Node* values = nullptr;             // map
  std::vector<const Node*> branches;        // union
  int64_t fixed_size = 0;                   // fixed
  int32_t precision = 0;                    // decimal
  int32_t scale = 0;                        // decimal

  // Attributes beyond the structural ones, in document order, including "logicalType" and its
  // parameters, so that unknown or invalid logical types are written back unchanged.
  Json::Object attributes;

  bool is_named() const {
    return type == Type::kRecord || type == Type::kEnum || type == Type::kFixed;
  }
  std::string_view name() const;        // the part after the last dot
  std::string_view name_space() const;  // the part before it, "" for the null namespace
  // An integer attribute such as "element-id", when present and an integer.
  std::optional<int64_t> IntAttribute(std::string_view key) const;
  // Any attribute by key, or nullptr.
  const Json* Attribute(std::string_view key) const;
  // Whether this is an array of two-field key/value records marked with logicalType "map": the
  // form Iceberg gives maps whose keys are not strings.
  bool IsKeyValueArray() const;
  // The index of a record field by name; nullopt when absent.
  std::optional<size_t> FieldIndex(std::string_view name) const;
  // For a union ["null", T] or [T, "null"]: the index of the null branch; nullopt otherwise.
  std::optional<size_t> NullBranch() const;
};

class Schema {
 public:
  static Result<std::shared_ptr<const Schema>> Parse(std::string_view json);
  static Result<std::shared_ptr<const Schema>> FromJson(const Json& json);

  const Node& root() const { return *root_; }
  // The named type with this full name, or nullptr.
  const Node* FindNamed(std::string_view full_name) const;

  // The schema as JSON; each named type is defined at its first use and referenced by name after.
  Json ToJson() const;
  std::string ToString() const { return ToJson().Dump(); }

  // Avro's Parsing Canonical Form: the schema stripped to what affects the binary encoding.
  std::string CanonicalForm() const;

  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;
  Schema() = default;

 private:
  friend class SchemaParser;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::unordered_map<std::string, const Node*> named_;
  const Node* root_ = nullptr;
};

// The CRC-64-AVRO (Rabin) fingerprint of a schema's canonical form, as single-object encoding uses.
uint64_t Fingerprint64(std::string_view canonical_form);

// Whether s is a valid Avro name: [A-Za-z_][A-Za-z0-9_]*.
bool IsValidName(std::string_view s);

}  // namespace floe::avro
