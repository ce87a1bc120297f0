#pragma once

// A partition or sort transform (spec "Partition Transforms"): identity, bucket[N], truncate[W],
// year, month, day, hour and void. A transform this version of floe does not know is kept by its
// name, so that a table using it still loads; such a field cannot be computed (Apply fails) and
// scans must ignore it when filtering.
//
// A Transform is a small value: copy it freely. What can go wrong: parsing a known transform with a
// bad parameter ("bucket[0]"), applying a transform to a type it does not accept, or applying an
// unknown transform; all are errors, never crashes.

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/spec/type.h"
#include "floe/util/error.h"

namespace floe {

class Literal;

class Transform {
 public:
  enum class Kind : unsigned char {
    kIdentity,
    kBucket,
    kTruncate,
    kYear,
    kMonth,
    kDay,
    kHour,
    kVoid,
    kUnknown,
  };

  static Transform Identity() { return Transform(Kind::kIdentity); }
  // num_buckets and width must be positive (Parse checks; Apply fails otherwise).
  static Transform Bucket(int32_t num_buckets) { return Transform(Kind::kBucket, num_buckets); }
  static Transform Truncate(int32_t width) { return Transform(Kind::kTruncate, width); }
  static Transform Year() { return Transform(Kind::kYear); }
  static Transform Month() { return Transform(Kind::kMonth); }
  static Transform Day() { return Transform(Kind::kDay); }
  static Transform Hour() { return Transform(Kind::kHour); }
  static Transform Void() { return Transform(Kind::kVoid); }
  static Transform Unknown(std::string name);

  // The spec's strings ("identity", "bucket[16]", "truncate[4]", "year"...), case-insensitively as
  // the reference implementation reads them. Anything else becomes an unknown transform. Errors:
  // bucket or truncate with a parameter that is not a positive 32-bit integer.
  static Result<Transform> Parse(std::string_view text);

  Kind kind() const { return kind_; }
  // The bucket count or truncate width; 0 for the other transforms.
  int32_t param() const { return param_; }
  bool is_identity() const { return kind_ == Kind::kIdentity; }
  bool is_void() const { return kind_ == Kind::kVoid; }
  bool is_unknown() const { return kind_ == Kind::kUnknown; }
  // year, month, day or hour: at most one of these per source column in a partition spec.
  bool is_time() const;

  // The spec's string; an unknown transform prints the text it was parsed from.
  std::string ToString() const;

  // Whether the transform accepts values of this source type. Unknown transforms accept anything:
  // they cannot be checked, only carried along.
  bool CanTransform(const Type& source) const;
  // The type of the transform's values for this source type (spec's "Result type"; void keeps the
  // source type, an unknown transform gives string as the reference implementation does).
  // Errors when the source type is not accepted.
  Result<TypePtr> ResultType(const TypePtr& source) const;

  // Transforms one value; null gives the null of the result type. The literal's type is the source
  // type. Errors for a source type the transform does not accept and for unknown transforms.
  Result<Literal> Apply(const Literal& value) const;

  // The string of a transformed value in partition paths, as the reference implementation writes
  // it: year "2026", month "2026-01", day "2026-01-01", hour "2026-01-01-10", bucket "7", null
  // "null"; identity and truncate values by their type (see HumanString in human_string.h). Not
  // URL-encoded.
  std::string ToHumanString(const Literal& transformed) const;

  // Whether a < b implies apply(a) <= apply(b).
  bool PreservesOrder() const;
  // Whether data ordered by this transform is also ordered by other: equal transforms, identity
  // for any order-preserving transform, and a finer time unit for a coarser one (hour satisfies
  // day, month and year).
  bool SatisfiesOrderOf(const Transform& other) const;

  friend bool operator==(const Transform& a, const Transform& b) {
    return a.kind_ == b.kind_ && a.param_ == b.param_ && a.unknown_name_ == b.unknown_name_;
  }

 private:
  explicit Transform(Kind kind, int32_t param = 0) : kind_(kind), param_(param) {}

  Kind kind_;
  int32_t param_ = 0;
  std::string unknown_name_;
};

}  // namespace floe
