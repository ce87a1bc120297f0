#include "floe/spec/sort_order.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "floe/spec/schema.h"

namespace floe {

std::string_view SortDirectionName(SortDirection direction) {
  return direction == SortDirection::kAsc ? "asc" : "desc";
}

std::string_view NullOrderName(NullOrder null_order) {
  return null_order == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last";
}

Result<SortDirection> ParseSortDirection(std::string_view text) {
  if (text == "asc") return SortDirection::kAsc;
  if (text == "desc") return SortDirection::kDesc;
  return InvalidArgument("invalid sort direction '{}': expected 'asc' or 'desc'", text);
}

Result<NullOrder> ParseNullOrder(std::string_view text) {
  if (text == "nulls-first") return NullOrder::kNullsFirst;
  if (text == "nulls-last") return NullOrder::kNullsLast;
  return InvalidArgument("invalid null order '{}': expected 'nulls-first' or 'nulls-last'", text);
}

bool SortField::Satisfies(const SortField& other) const {
  return source_ids == other.source_ids && direction == other.direction &&
         null_order == other.null_order && transform.SatisfiesOrderOf(other.transform);
}

std::string SortField::ToString() const {
  return fmt::format("{}({}) {} {}", transform.ToString(), fmt::join(source_ids, ", "),
                     SortDirectionName(direction), NullOrderName(null_order));
}

SortOrder::SortOrder(int32_t order_id, std::vector<SortField> fields)
    : order_id_(order_id), fields_(std::move(fields)) {}

const SortOrderPtr& SortOrder::Unsorted() {
  static const SortOrderPtr kUnsorted =
      std::make_shared<const SortOrder>(kUnsortedOrderId, std::vector<SortField>{});
  return kUnsorted;
}

Result<SortOrderPtr> SortOrder::Make(const Schema& schema, int32_t order_id,
                                     std::vector<SortField> fields) {
  auto order = std::make_shared<const SortOrder>(order_id, std::move(fields));
  FLOE_RETURN_IF_ERROR(order->Validate(schema));
  return order;
}

Status SortOrder::Validate(const Schema& schema) const { return ValidateFields(schema, true); }

Status SortOrder::ValidateExisting(const Schema& schema) const {
  return ValidateFields(schema, false);
}

Status SortOrder::ValidateFields(const Schema& schema, bool strict) const {
  if (order_id_ == kUnsortedOrderId && !fields_.empty()) {
    return InvalidArgument(
        "sort order id 0 is reserved for the unsorted order, but it has {} "
        "fields",
        fields_.size());
  }
  if (order_id_ != kUnsortedOrderId && fields_.empty()) {
    return InvalidArgument("sort order {} has no fields: the unsorted order must have id 0",
                           order_id_);
  }
  for (const auto& field : fields_) {
    if (field.source_ids.empty()) {
      return InvalidArgument("sort order {}: field {} has no source column", order_id_,
                             field.ToString());
    }
    if (strict && field.transform.is_unknown()) {
      return InvalidArgument("sort order {}: field {} has unknown transform '{}'", order_id_,
                             field.ToString(), field.transform.ToString());
    }
    if (strict && field.source_ids.size() > 1) {
      return InvalidArgument("sort order {}: field {}: transform {} takes one source column",
                             order_id_, field.ToString(), field.transform.ToString());
    }
    for (int32_t source_id : field.source_ids) {
      const NestedField* source = schema.FindField(source_id);
      if (!source) {
        if (strict) {
          return InvalidArgument("sort order {}: field {}: source column {} is not in the schema",
                                 order_id_, field.ToString(), source_id);
        }
        continue;
      }
      if (!source->type->is_primitive()) {
        return InvalidArgument(
            "sort order {}: field {}: source column {} ({}) is {}, not "
            "primitive",
            order_id_, field.ToString(), source_id, source->name, source->type->ToString());
      }
      if (!field.transform.is_unknown() && !field.transform.CanTransform(*source->type)) {
        return InvalidArgument(
            "sort order {}: field {}: transform {} cannot be applied to {} column {}", order_id_,
            field.ToString(), field.transform.ToString(), source->type->ToString(), source_id);
      }
    }
  }
  return Ok();
}

bool SortOrder::Satisfies(const SortOrder& other) const {
  if (other.is_unsorted()) return true;
  if (other.fields_.size() > fields_.size()) return false;
  for (size_t i = 0; i < other.fields_.size(); ++i) {
    if (!fields_[i].Satisfies(other.fields_[i])) return false;
  }
  return true;
}

std::string SortOrder::ToString() const {
  if (fields_.empty()) return "[]";
  std::string out = "[\n";
  for (const auto& field : fields_) out += fmt::format("  {}\n", field.ToString());
  out += "]";
  return out;
}

}  // namespace floe
