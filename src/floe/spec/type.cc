#include "floe/spec/type.h"

#include <array>

#include <fmt/format.h>

namespace floe {

std::string_view TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kUnknown: return "unknown";
    case TypeId::kBoolean: return "boolean";
    case TypeId::kInt: return "int";
    case TypeId::kLong: return "long";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal: return "decimal";
    case TypeId::kDate: return "date";
    case TypeId::kTime: return "time";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampTz: return "timestamptz";
    case TypeId::kTimestampNs: return "timestamp_ns";
    case TypeId::kTimestampTzNs: return "timestamptz_ns";
    case TypeId::kString: return "string";
    case TypeId::kUuid: return "uuid";
    case TypeId::kFixed: return "fixed";
    case TypeId::kBinary: return "binary";
    case TypeId::kVariant: return "variant";
    case TypeId::kGeometry: return "geometry";
    case TypeId::kGeography: return "geography";
    case TypeId::kStruct: return "struct";
    case TypeId::kList: return "list";
    case TypeId::kMap: return "map";
  }
  return "invalid";
}

int Type::min_format_version() const {
  switch (id_) {
    case TypeId::kUnknown:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return 3;
    default:
      return 1;
  }
}

PrimitiveType::PrimitiveType(TypeId id, int precision, int scale, int64_t length, std::string crs,
                             std::string algorithm)
    : Type(id),
      precision_(precision),
      scale_(scale),
      length_(length),
      crs_(std::move(crs)),
      algorithm_(std::move(algorithm)) {}

TypePtr PrimitiveType::Get(TypeId id) {
  // One shared instance per parameterless type id, built once.
  static const auto instances = [] {
    std::array<TypePtr, static_cast<size_t>(TypeId::kStruct)> all;
    for (size_t i = 0; i < all.size(); ++i) {
      all[i] = std::make_shared<const PrimitiveType>(static_cast<TypeId>(i), 0, 0, 0, "", "");
    }
    return all;
  }();
  return instances.at(static_cast<size_t>(id));
}

TypePtr PrimitiveType::Decimal(int precision, int scale) {
  return std::make_shared<const PrimitiveType>(TypeId::kDecimal, precision, scale, 0, "", "");
}

TypePtr PrimitiveType::Fixed(int64_t length) {
  return std::make_shared<const PrimitiveType>(TypeId::kFixed, 0, 0, length, "", "");
}

TypePtr PrimitiveType::Geometry(std::string crs) {
  return std::make_shared<const PrimitiveType>(TypeId::kGeometry, 0, 0, 0, std::move(crs), "");
}

TypePtr PrimitiveType::Geography(std::string crs, std::string algorithm) {
  return std::make_shared<const PrimitiveType>(TypeId::kGeography, 0, 0, 0, std::move(crs),
                                               std::move(algorithm));
}

std::string PrimitiveType::ToString() const {
  switch (id()) {
    case TypeId::kDecimal: return fmt::format("decimal({}, {})", precision_, scale_);
    case TypeId::kFixed: return fmt::format("fixed[{}]", length_);
    case TypeId::kGeometry:
      return crs_.empty() ? std::string("geometry") : fmt::format("geometry({})", crs_);
    case TypeId::kGeography:
      if (crs_.empty() && algorithm_.empty()) return "geography";
      if (algorithm_.empty()) return fmt::format("geography({})", crs_);
      return fmt::format("geography({}, {})", crs_.empty() ? "OGC:CRS84" : crs_, algorithm_);
    default: return std::string(TypeIdName(id()));
  }
}

bool PrimitiveType::Equals(const Type& other) const {
  if (other.id() != id()) return false;
  const auto& o = static_cast<const PrimitiveType&>(other);
  return precision_ == o.precision_ && scale_ == o.scale_ && length_ == o.length_ &&
         crs_ == o.crs_ && algorithm_ == o.algorithm_;
}

std::string NestedField::ToString() const {
  std::string out = fmt::format("{}: {}: {} {}", id, name, required ? "required" : "optional",
                                type ? type->ToString() : "<null>");
  if (!doc.empty()) out += fmt::format(" ({})", doc);
  return out;
}

bool operator==(const NestedField& a, const NestedField& b) {
  if (a.id != b.id || a.name != b.name || a.required != b.required || a.doc != b.doc) return false;
  if (a.initial_default != b.initial_default || a.write_default != b.write_default) return false;
  if (!a.type || !b.type) return a.type == b.type;
  return a.type->Equals(*b.type);
}

StructType::StructType(std::vector<NestedField> fields)
    : Type(TypeId::kStruct), fields_(std::move(fields)) {}

const NestedField* StructType::FieldById(int32_t id) const {
  for (const auto& field : fields_) {
    if (field.id == id) return &field;
  }
  return nullptr;
}

const NestedField* StructType::FieldByName(std::string_view name, bool case_sensitive) const {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  for (const auto& field : fields_) {
    if (case_sensitive ? field.name == name : lower(field.name) == lower(name)) return &field;
  }
  return nullptr;
}

int StructType::IndexOf(int32_t id) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

std::string StructType::ToString() const {
  std::string out = "struct<";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields_[i].ToString();
  }
  return out + ">";
}

bool StructType::Equals(const Type& other) const {
  return other.id() == TypeId::kStruct &&
         fields_ == static_cast<const StructType&>(other).fields_;
}

ListType::ListType(NestedField element) : Type(TypeId::kList), element_(std::move(element)) {}

std::string ListType::ToString() const {
  return fmt::format("list<{}>", element_.type ? element_.type->ToString() : "<null>");
}

bool ListType::Equals(const Type& other) const {
  return other.id() == TypeId::kList && element_ == static_cast<const ListType&>(other).element_;
}

MapType::MapType(NestedField key, NestedField value)
    : Type(TypeId::kMap), key_(std::move(key)), value_(std::move(value)) {}

std::string MapType::ToString() const {
  return fmt::format("map<{}, {}>", key_.type ? key_.type->ToString() : "<null>",
                     value_.type ? value_.type->ToString() : "<null>");
}

bool MapType::Equals(const Type& other) const {
  if (other.id() != TypeId::kMap) return false;
  const auto& o = static_cast<const MapType&>(other);
  return key_ == o.key_ && value_ == o.value_;
}

}  // namespace floe
