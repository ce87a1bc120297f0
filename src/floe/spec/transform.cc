#include "floe/spec/transform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "floe/spec/human_string.h"
#include "floe/spec/literal.h"
#include "floe/spec/transform_values.h"
#include "floe/util/calendar.h"
#include "floe/util/murmur3.h"

namespace floe {
namespace {

namespace tv = transform_values;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

bool IsTimestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

bool IsNanos(TypeId id) { return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs; }

int64_t EpochMicros(const Literal& value) {
  return IsNanos(value.type_id()) ? tv::MicrosFromNanos(value.long_value()) : value.long_value();
}

int64_t EpochDays(const Literal& value) {
  if (value.type_id() == TypeId::kDate) return value.int_value();
  return tv::DaysFromMicros(EpochMicros(value));
}

Result<int32_t> BucketHash(const Literal& value) {
  switch (value.type_id()) {
    case TypeId::kInt:
      return Murmur3HashInt(value.int_value());
    case TypeId::kDate:
      return Murmur3HashDate(value.int_value());
    case TypeId::kLong:
      return Murmur3HashLong(value.long_value());
    case TypeId::kTime:
      return Murmur3HashTime(value.long_value());
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return Murmur3HashTimestamp(value.long_value());
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Murmur3HashTimestampNs(value.long_value());
    case TypeId::kDecimal:
      return Murmur3HashDecimal(value.decimal_value());
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Murmur3HashBytes(value.bytes_value());
    default:
      return InvalidArgument("cannot bucket a {} value", value.type()->ToString());
  }
}

}  // namespace

Transform Transform::Unknown(std::string name) {
  Transform transform(Kind::kUnknown);
  transform.unknown_name_ = std::move(name);
  return transform;
}

Result<Transform> Transform::Parse(std::string_view text) {
  static constexpr std::pair<std::string_view, Kind> kPlain[] = {
      {"identity", Kind::kIdentity}, {"year", Kind::kYear}, {"month", Kind::kMonth},
      {"day", Kind::kDay},           {"hour", Kind::kHour}, {"void", Kind::kVoid},
  };
  for (const auto& [name, kind] : kPlain) {
    if (EqualsIgnoreCase(text, name)) return Transform(kind);
  }
  const size_t open = text.find('[');
  if (open != std::string_view::npos && text.ends_with(']')) {
    const std::string_view name = text.substr(0, open);
    const std::string_view digits = text.substr(open + 1, text.size() - open - 2);
    const bool bucket = EqualsIgnoreCase(name, "bucket");
    // As in the reference implementation, only digits make a parameter; "bucket[x]" is unknown.
    const bool all_digits =
        !digits.empty() && std::ranges::all_of(digits, [](char c) { return c >= '0' && c <= '9'; });
    if (all_digits && (bucket || EqualsIgnoreCase(name, "truncate"))) {
      int32_t param = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), param);
      if (ec != std::errc() || end != digits.data() + digits.size() || param <= 0) {
        return InvalidArgument("invalid transform '{}': {} must be a positive 32-bit integer", text,
                               bucket ? "the number of buckets" : "the width");
      }
      return Transform(bucket ? Kind::kBucket : Kind::kTruncate, param);
    }
  }
  return Unknown(std::string(text));
}

bool Transform::is_time() const {
  return kind_ == Kind::kYear || kind_ == Kind::kMonth || kind_ == Kind::kDay ||
         kind_ == Kind::kHour;
}

std::string Transform::ToString() const {
  switch (kind_) {
    case Kind::kIdentity:
      return "identity";
    case Kind::kBucket:
      return fmt::format("bucket[{}]", param_);
    case Kind::kTruncate:
      return fmt::format("truncate[{}]", param_);
    case Kind::kYear:
      return "year";
    case Kind::kMonth:
      return "month";
    case Kind::kDay:
      return "day";
    case Kind::kHour:
      return "hour";
    case Kind::kVoid:
      return "void";
    case Kind::kUnknown:
      return unknown_name_;
  }
  return unknown_name_;
}

bool Transform::CanTransform(const Type& source) const {
  const TypeId id = source.id();
  switch (kind_) {
    case Kind::kIdentity:
      return source.is_primitive() && id != TypeId::kGeometry && id != TypeId::kGeography;
    case Kind::kBucket:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal ||
             id == TypeId::kDate || id == TypeId::kTime || IsTimestamp(id) ||
             id == TypeId::kString || id == TypeId::kUuid || id == TypeId::kFixed ||
             id == TypeId::kBinary;
    case Kind::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal ||
             id == TypeId::kString || id == TypeId::kBinary;
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay:
      return id == TypeId::kDate || IsTimestamp(id);
    case Kind::kHour:
      return IsTimestamp(id);
    case Kind::kVoid:
    case Kind::kUnknown:
      return true;
  }
  return false;
}

Result<TypePtr> Transform::ResultType(const TypePtr& source) const {
  if (!source || !CanTransform(*source)) {
    return InvalidArgument("transform {} cannot be applied to {}", ToString(),
                           source ? source->ToString() : "a missing type");
  }
  switch (kind_) {
    case Kind::kBucket:
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kHour:
      return types::Int();
    case Kind::kDay:
      return types::Date();
    case Kind::kUnknown:
      return types::String();
    default:
      return source;
  }
}

Result<Literal> Transform::Apply(const Literal& value) const {
  if (kind_ == Kind::kUnknown) {
    return Unsupported("cannot apply unknown transform '{}'", unknown_name_);
  }
  FLOE_ASSIGN_OR_RETURN(TypePtr result_type, ResultType(value.type()));
  if (value.is_null() || kind_ == Kind::kVoid) return Literal::Null(std::move(result_type));
  if ((kind_ == Kind::kBucket || kind_ == Kind::kTruncate) && param_ <= 0) {
    return InvalidArgument("transform {} has a non-positive parameter", ToString());
  }
  switch (kind_) {
    case Kind::kIdentity:
      return value;
    case Kind::kBucket: {
      FLOE_ASSIGN_OR_RETURN(int32_t hash, BucketHash(value));
      return Literal::Int(tv::BucketOf(hash, param_));
    }
    case Kind::kTruncate:
      switch (value.type_id()) {
        case TypeId::kInt:
          return Literal::Int(tv::TruncateInt(value.int_value(), param_));
        case TypeId::kLong:
          return Literal::Long(tv::TruncateLong(value.long_value(), param_));
        case TypeId::kDecimal: {
          const auto& decimal = static_cast<const PrimitiveType&>(*value.type());
          return Literal::Decimal(tv::TruncateDecimal(value.decimal_value(), param_),
                                  decimal.precision(), decimal.scale());
        }
        case TypeId::kString:
          return Literal::String(std::string(tv::TruncateUtf8(value.bytes_value(), param_)));
        case TypeId::kBinary:
          return Literal::Binary(value.bytes_value().substr(0, static_cast<size_t>(param_)));
        default:
          break;
      }
      break;
    case Kind::kYear:
      return Literal::Int(static_cast<int32_t>(tv::YearsFromDays(EpochDays(value))));
    case Kind::kMonth:
      return Literal::Int(static_cast<int32_t>(tv::MonthsFromDays(EpochDays(value))));
    case Kind::kDay:
      return Literal::Date(static_cast<int32_t>(EpochDays(value)));
    case Kind::kHour:
      return Literal::Int(static_cast<int32_t>(tv::HoursFromMicros(EpochMicros(value))));
    default:
      break;
  }
  return InternalError("transform {} of {} not handled", ToString(), value.type()->ToString());
}

std::string Transform::ToHumanString(const Literal& transformed) const {
  if (transformed.is_null()) return "null";
  const TypeId id = transformed.type_id();
  const bool is_int = id == TypeId::kInt || id == TypeId::kDate;
  switch (kind_) {
    case Kind::kYear:
      if (is_int) return HumanYear(transformed.int_value());
      break;
    case Kind::kMonth:
      if (is_int) return HumanMonth(transformed.int_value());
      break;
    case Kind::kDay:
      // Older writers stored day values as int; both mean days since 1970-01-01.
      if (is_int) return HumanDay(transformed.int_value());
      break;
    case Kind::kHour:
      if (is_int) return HumanHour(transformed.int_value());
      break;
    case Kind::kVoid:
      return "null";
    default:
      break;
  }
  return HumanString(transformed);
}

bool Transform::PreservesOrder() const {
  switch (kind_) {
    case Kind::kIdentity:
    case Kind::kTruncate:
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay:
    case Kind::kHour:
      return true;
    default:
      return false;
  }
}

bool Transform::SatisfiesOrderOf(const Transform& other) const {
  if (*this == other) return true;
  if (kind_ == Kind::kIdentity) return other.PreservesOrder();
  if (is_time() && other.is_time()) {
    // Kinds run year, month, day, hour: a later kind is a finer unit.
    return kind_ >= other.kind_;
  }
  return false;
}

}  // namespace floe
