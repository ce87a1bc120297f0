#pragma once

// A sort order (spec "Sorting"): how rows are ordered within data files, as a list of sort fields
// applied in turn. Files name the order they were written in by its id; id 0 is the unsorted order.
// Immutable; shared as SortOrderPtr. JSON lives in sort_order_json.h.
//
// What can go wrong: an order that does not fit the schema (missing or non-primitive source, a
// transform that does not accept the source type) or that misuses id 0; Validate says which.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/transform.h"
#include "floe/util/error.h"

namespace floe {

class Schema;

enum class SortDirection : unsigned char { kAsc, kDesc };
enum class NullOrder : unsigned char { kNullsFirst, kNullsLast };

// "asc"/"desc" and "nulls-first"/"nulls-last", the spec's JSON strings.
std::string_view SortDirectionName(SortDirection direction);
std::string_view NullOrderName(NullOrder null_order);
Result<SortDirection> ParseSortDirection(std::string_view text);
Result<NullOrder> ParseNullOrder(std::string_view text);

struct SortField {
  Transform transform = Transform::Identity();
  // One source column for every transform the spec defines today; several for v3 multi-argument
  // transforms, kept but not computable.
  std::vector<int32_t> source_ids;
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;

  int32_t source_id() const { return source_ids.empty() ? -1 : source_ids.front(); }
  // Whether data sorted by this field is also sorted by other: same sources, direction and null
  // order, and a transform that satisfies the other's (Transform::SatisfiesOrderOf).
  bool Satisfies(const SortField& other) const;
  // "bucket[4](3) desc nulls-last".
  std::string ToString() const;
  friend bool operator==(const SortField& a, const SortField& b) = default;
};

class SortOrder;
using SortOrderPtr = std::shared_ptr<const SortOrder>;

class SortOrder {
 public:
  static constexpr int32_t kUnsortedOrderId = 0;
  static constexpr int32_t kInitialOrderId = 1;

  SortOrder(int32_t order_id, std::vector<SortField> fields);
  // The unsorted order, id 0, no fields.
  static const SortOrderPtr& Unsorted();
  // Builds an order and checks it with Validate.
  static Result<SortOrderPtr> Make(const Schema& schema, int32_t order_id,
                                   std::vector<SortField> fields);

  int32_t order_id() const { return order_id_; }
  std::span<const SortField> fields() const { return fields_; }
  bool is_unsorted() const { return fields_.empty(); }

  // For an order floe creates: id 0 exactly when there are no fields; every source column exists,
  // is primitive and is accepted by a known transform; one source column per field.
  Status Validate(const Schema& schema) const;
  // For an order read from table metadata: the id rule, and sources that still exist are
  // primitive and accepted by known transforms; dropped sources and unknown transforms are allowed.
  Status ValidateExisting(const Schema& schema) const;

  // Whether data in this order is also in other's order: other is unsorted, or its fields are
  // satisfied one by one by this order's first fields.
  bool Satisfies(const SortOrder& other) const;
  // Same fields, ignoring the order id.
  bool SameOrder(const SortOrder& other) const { return fields_ == other.fields_; }

  // "[\n  identity(2) asc nulls-first\n]", "[]" when unsorted.
  std::string ToString() const;
  friend bool operator==(const SortOrder& a, const SortOrder& b) {
    return a.order_id_ == b.order_id_ && a.fields_ == b.fields_;
  }

 private:
  Status ValidateFields(const Schema& schema, bool strict) const;

  int32_t order_id_;
  std::vector<SortField> fields_;
};

}  // namespace floe
