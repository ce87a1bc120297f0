#pragma once

// Iceberg data types (spec: "Schemas and Data Types"), for format versions 1 to 3.
//
// Types are immutable and shared: TypePtr = std::shared_ptr<const Type>. Primitive types are values
// of PrimitiveType (decimal, fixed, geometry and geography carry parameters); nested types are
// StructType, ListType and MapType, whose children are NestedFields with ids unique in a schema.
// Parsing and printing of the JSON form live in schema_json.h.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

enum class TypeId : unsigned char {
  kUnknown,  // v3
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kTimestampNs,    // v3
  kTimestampTzNs,  // v3
  kString,
  kUuid,
  kFixed,
  kBinary,
  kVariant,    // v3, semi-structured: neither primitive nor nested
  kGeometry,   // v3
  kGeography,  // v3
  kStruct,
  kList,
  kMap,
};

class Type;
class StructType;
using TypePtr = std::shared_ptr<const Type>;

class Type {
 public:
  virtual ~Type() = default;
  TypeId id() const { return id_; }
  bool is_nested() const { return id_ == TypeId::kStruct || id_ == TypeId::kList || id_ == TypeId::kMap; }
  bool is_primitive() const { return !is_nested() && id_ != TypeId::kVariant; }
  // The spec's name: "decimal(9, 2)", "fixed[16]", "struct<1: a: required int>", "list<string>"...
  virtual std::string ToString() const = 0;
  // Structural equality, field ids, names, requiredness and docs included.
  virtual bool Equals(const Type& other) const = 0;
  // The first format version that allows this type (1 for v1 types, 3 for timestamp_ns...).
  int min_format_version() const;

 protected:
  explicit Type(TypeId id) : id_(id) {}

 private:
  TypeId id_;
};

inline bool operator==(const Type& a, const Type& b) { return a.Equals(b); }

// A primitive type, or variant. Parameters: precision/scale for decimal, length for fixed, crs for
// geometry/geography, edge algorithm for geography.
class PrimitiveType final : public Type {
 public:
  // Shared instances of the parameterless types.
  static TypePtr Get(TypeId id);
  static TypePtr Decimal(int precision, int scale);
  static TypePtr Fixed(int64_t length);
  static TypePtr Geometry(std::string crs = "");
  static TypePtr Geography(std::string crs = "", std::string algorithm = "");

  int precision() const { return precision_; }
  int scale() const { return scale_; }
  int64_t length() const { return length_; }
  const std::string& crs() const { return crs_; }            // empty = OGC:CRS84
  const std::string& algorithm() const { return algorithm_; }  // empty = spherical

  std::string ToString() const override;
  bool Equals(const Type& other) const override;

  // Use the factories above; public for std::make_shared.
  PrimitiveType(TypeId id, int precision, int scale, int64_t length, std::string crs,
                std::string algorithm);

 private:
  int precision_ = 0;
  int scale_ = 0;
  int64_t length_ = 0;
  std::string crs_;
  std::string algorithm_;
};

// A field of a struct, or the element of a list, or the key or value of a map.
struct NestedField {
  int32_t id = 0;
  std::string name;
  TypePtr type;
  bool required = false;
  std::string doc;
  // Defaults in their JSON single-value form (spec Appendix C); see literal.h to decode them.
  std::optional<Json> initial_default;
  std::optional<Json> write_default;

  std::string ToString() const;  // "1: id: required long"
  friend bool operator==(const NestedField& a, const NestedField& b);
};

class StructType final : public Type {
 public:
  explicit StructType(std::vector<NestedField> fields);
  static std::shared_ptr<const StructType> Make(std::vector<NestedField> fields) {
    return std::make_shared<const StructType>(std::move(fields));
  }

  std::span<const NestedField> fields() const { return fields_; }
  // Direct children only; nullptr when absent.
  const NestedField* FieldById(int32_t id) const;
  const NestedField* FieldByName(std::string_view name, bool case_sensitive = true) const;
  // Position of a direct child, or -1.
  int IndexOf(int32_t id) const;

  std::string ToString() const override;
  bool Equals(const Type& other) const override;

 private:
  std::vector<NestedField> fields_;
};

class ListType final : public Type {
 public:
  explicit ListType(NestedField element);
  static std::shared_ptr<const ListType> Make(int32_t element_id, TypePtr element_type,
                                              bool element_required) {
    return std::make_shared<const ListType>(
        NestedField{.id = element_id, .name = "element", .type = std::move(element_type),
                    .required = element_required});
  }
  const NestedField& element() const { return element_; }
  std::string ToString() const override;
  bool Equals(const Type& other) const override;

 private:
  NestedField element_;
};

class MapType final : public Type {
 public:
  MapType(NestedField key, NestedField value);
  static std::shared_ptr<const MapType> Make(int32_t key_id, TypePtr key_type, int32_t value_id,
                                             TypePtr value_type, bool value_required) {
    return std::make_shared<const MapType>(
        NestedField{.id = key_id, .name = "key", .type = std::move(key_type), .required = true},
        NestedField{.id = value_id, .name = "value", .type = std::move(value_type),
                    .required = value_required});
  }
  const NestedField& key() const { return key_; }
  const NestedField& value() const { return value_; }
  std::string ToString() const override;
  bool Equals(const Type& other) const override;

 private:
  NestedField key_;
  NestedField value_;
};

// Shorthands for building schemas in code and tests.
namespace types {
inline TypePtr Boolean() { return PrimitiveType::Get(TypeId::kBoolean); }
inline TypePtr Int() { return PrimitiveType::Get(TypeId::kInt); }
inline TypePtr Long() { return PrimitiveType::Get(TypeId::kLong); }
inline TypePtr Float() { return PrimitiveType::Get(TypeId::kFloat); }
inline TypePtr Double() { return PrimitiveType::Get(TypeId::kDouble); }
inline TypePtr Decimal(int precision, int scale) { return PrimitiveType::Decimal(precision, scale); }
inline TypePtr Date() { return PrimitiveType::Get(TypeId::kDate); }
inline TypePtr Time() { return PrimitiveType::Get(TypeId::kTime); }
inline TypePtr Timestamp() { return PrimitiveType::Get(TypeId::kTimestamp); }
inline TypePtr TimestampTz() { return PrimitiveType::Get(TypeId::kTimestampTz); }
inline TypePtr TimestampNs() { return PrimitiveType::Get(TypeId::kTimestampNs); }
inline TypePtr TimestampTzNs() { return PrimitiveType::Get(TypeId::kTimestampTzNs); }
inline TypePtr String() { return PrimitiveType::Get(TypeId::kString); }
inline TypePtr Uuid() { return PrimitiveType::Get(TypeId::kUuid); }
inline TypePtr Fixed(int64_t length) { return PrimitiveType::Fixed(length); }
inline TypePtr Binary() { return PrimitiveType::Get(TypeId::kBinary); }
inline TypePtr Unknown() { return PrimitiveType::Get(TypeId::kUnknown); }
inline TypePtr Variant() { return PrimitiveType::Get(TypeId::kVariant); }
inline NestedField Required(int32_t id, std::string name, TypePtr type, std::string doc = "") {
  return {.id = id, .name = std::move(name), .type = std::move(type), .required = true,
          .doc = std::move(doc)};
}
inline NestedField Optional(int32_t id, std::string name, TypePtr type, std::string doc = "") {
  return {.id = id, .name = std::move(name), .type = std::move(type), .required = false,
          .doc = std::move(doc)};
}
}  // namespace types

// The spec's name of a type id without parameters ("timestamptz", "decimal", "struct").
std::string_view TypeIdName(TypeId id);

}  // namespace floe
