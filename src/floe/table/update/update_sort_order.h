#pragma once

// Replaces the table's default sort order (Iceberg's ReplaceSortOrder): fields by column name,
// transform, direction and null order; an empty order means unsorted. An order equal to an
// existing one reuses its id. Errors: unknown columns, transforms that do not fit their column.

#include <string>
#include <vector>

#include "floe/spec/sort_order.h"
#include "floe/table/update/pending_update.h"

namespace floe::table {

class ReplaceSortOrder : public PendingUpdate {
 public:
  explicit ReplaceSortOrder(Table& table) : PendingUpdate(table) {}

  ReplaceSortOrder& Asc(std::string column, NullOrder nulls = NullOrder::kNullsFirst,
                        Transform transform = Transform::Identity());
  ReplaceSortOrder& Desc(std::string column, NullOrder nulls = NullOrder::kNullsLast,
                         Transform transform = Transform::Identity());

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;

 private:
  struct Field {
    std::string column;
    Transform transform;
    SortDirection direction;
    NullOrder nulls;
  };
  std::vector<Field> fields_;
};

}  // namespace floe::table
