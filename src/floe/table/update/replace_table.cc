#include "floe/table/update/replace_table.h"

#include <algorithm>

#include "floe/spec/partition_evolution.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"

namespace floe::table {
namespace {

// The id in `to` of the column that has id `id` in `from`, matched by full name.
Result<int32_t> Remap(const Schema& from, const Schema& to, int32_t id) {
  std::optional<std::string> name = from.FindColumnName(id);
  const NestedField* field = name ? to.FindField(*name) : nullptr;
  if (!field) return InvalidArgument("column {} of the replacement is not in its schema", id);
  return field->id;
}

}  // namespace

Result<std::vector<catalog::TableUpdate>> ReplacementUpdates(const TableMetadata& base,
                                                             const TableMetadata& replacement) {
  const Schema& wanted = *replacement.current_schema();
  int32_t last_column_id = base.highest_assigned_column_id();
  int32_t schema_id = 0;
  for (const SchemaPtr& schema : base.schemas()) {
    schema_id = std::max(schema_id, schema->schema_id() + 1);
  }
  SchemaPtr schema = wanted.AssignFreshIds([&] { return ++last_column_id; },
                                           base.current_schema().get(), schema_id);

  std::vector<PartitionField> fields;
  for (const PartitionField& field : replacement.default_spec()->fields()) {
    PartitionField copy = field;
    for (int32_t& source : copy.source_ids) {
      FLOE_ASSIGN_OR_RETURN(source, Remap(wanted, *schema, source));
    }
    fields.push_back(std::move(copy));
  }
  int32_t spec_id = 0;
  for (const PartitionSpecPtr& spec : base.partition_specs()) {
    spec_id = std::max(spec_id, spec->spec_id() + 1);
  }
  PartitionHistory history{base.format_version(), base.partition_specs(), base.default_spec().get(),
                           base.last_partition_id()};
  FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec,
                        EvolvePartitionSpec(history, std::move(fields), spec_id));
  FLOE_RETURN_IF_ERROR(spec->Validate(*schema));

  std::vector<SortField> sort_fields;
  for (const SortField& field : replacement.default_sort_order()->fields()) {
    SortField copy = field;
    for (int32_t& source : copy.source_ids) {
      FLOE_ASSIGN_OR_RETURN(source, Remap(wanted, *schema, source));
    }
    sort_fields.push_back(std::move(copy));
  }

  std::vector<catalog::TableUpdate> updates;
  updates.push_back(catalog::AddSchema{schema, last_column_id});
  updates.push_back(catalog::SetCurrentSchema{catalog::kLastAdded});
  updates.push_back(catalog::AddPartitionSpec{spec});
  updates.push_back(catalog::SetDefaultSpec{catalog::kLastAdded});
  if (sort_fields.empty()) {
    updates.push_back(catalog::SetDefaultSortOrder{SortOrder::Unsorted()->order_id()});
  } else {
    int32_t order_id = 1;
    for (const SortOrderPtr& order : base.sort_orders()) {
      order_id = std::max(order_id, order->order_id() + 1);
    }
    FLOE_ASSIGN_OR_RETURN(SortOrderPtr order,
                          SortOrder::Make(*schema, order_id, std::move(sort_fields)));
    updates.push_back(catalog::AddSortOrder{order});
    updates.push_back(catalog::SetDefaultSortOrder{catalog::kLastAdded});
  }
  if (!replacement.properties().empty()) {
    updates.push_back(catalog::SetProperties{replacement.properties()});
  }
  if (base.FindRef(SnapshotRef::kMainBranch)) {
    updates.push_back(catalog::RemoveSnapshotRef{std::string(SnapshotRef::kMainBranch)});
  }
  return updates;
}

}  // namespace floe::table
