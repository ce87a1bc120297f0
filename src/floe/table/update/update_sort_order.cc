#include "floe/table/update/update_sort_order.h"

#include <algorithm>

#include "floe/spec/schema.h"

namespace floe::table {

ReplaceSortOrder& ReplaceSortOrder::Asc(std::string column, NullOrder nulls, Transform transform) {
  fields_.push_back({std::move(column), std::move(transform), SortDirection::kAsc, nulls});
  return *this;
}

ReplaceSortOrder& ReplaceSortOrder::Desc(std::string column, NullOrder nulls, Transform transform) {
  fields_.push_back({std::move(column), std::move(transform), SortDirection::kDesc, nulls});
  return *this;
}

Result<std::vector<catalog::TableUpdate>> ReplaceSortOrder::Apply(const TableMetadata& base) {
  const Schema& schema = *base.current_schema();
  std::vector<SortField> fields;
  for (const Field& field : fields_) {
    const NestedField* source = schema.FindField(field.column);
    if (!source) return InvalidArgument("cannot sort by unknown column '{}'", field.column);
    fields.push_back(SortField{field.transform, {source->id}, field.direction, field.nulls});
  }
  std::vector<catalog::TableUpdate> updates;
  for (const SortOrderPtr& order : base.sort_orders()) {
    if (order->fields().size() == fields.size() &&
        std::equal(fields.begin(), fields.end(), order->fields().begin())) {
      updates.push_back(catalog::SetDefaultSortOrder{order->order_id()});
      return updates;
    }
  }
  int32_t next_id = 1;
  for (const SortOrderPtr& order : base.sort_orders()) {
    next_id = std::max(next_id, order->order_id() + 1);
  }
  FLOE_ASSIGN_OR_RETURN(SortOrderPtr order, SortOrder::Make(schema, next_id, std::move(fields)));
  updates.push_back(catalog::AddSortOrder{order});
  updates.push_back(catalog::SetDefaultSortOrder{catalog::kLastAdded});
  return updates;
}

}  // namespace floe::table
