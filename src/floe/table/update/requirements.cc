#include "floe/table/update/requirements.h"

#include <set>
#include <string>
#include <type_traits>

namespace floe::table {

std::vector<catalog::TableRequirement> RequirementsFor(
    const TableMetadata& base, std::span<const catalog::TableUpdate> updates) {
  std::vector<catalog::TableRequirement> out;
  if (!base.table_uuid().empty())
    out.emplace_back(std::in_place_type<catalog::AssertTableUuid>, base.table_uuid());
  std::set<std::string, std::less<>> refs;
  bool schema = false, current_schema = false, spec = false, default_spec = false;
  bool default_order = false;
  for (const catalog::TableUpdate& update : updates) {
    std::visit(
        [&](const auto& u) {
          using U = std::decay_t<decltype(u)>;
          if constexpr (std::is_same_v<U, catalog::SetSnapshotRef>) {
            if (!refs.insert(u.ref_name).second) return;
            const SnapshotRef* ref = base.FindRef(u.ref_name);
            std::optional<int64_t> id;
            if (ref) id = ref->snapshot_id;
            out.emplace_back(std::in_place_type<catalog::AssertRefSnapshotId>, u.ref_name, id);
          } else if constexpr (std::is_same_v<U, catalog::AddSchema>) {
            if (schema) return;
            schema = true;
            out.emplace_back(std::in_place_type<catalog::AssertLastAssignedFieldId>,
                             base.last_column_id());
          } else if constexpr (std::is_same_v<U, catalog::SetCurrentSchema>) {
            if (current_schema) return;
            current_schema = true;
            out.emplace_back(std::in_place_type<catalog::AssertCurrentSchemaId>,
                             base.current_schema_id());
          } else if constexpr (std::is_same_v<U, catalog::AddPartitionSpec>) {
            if (spec) return;
            spec = true;
            out.emplace_back(std::in_place_type<catalog::AssertLastAssignedPartitionId>,
                             base.last_partition_id());
          } else if constexpr (std::is_same_v<U, catalog::SetDefaultSpec>) {
            if (default_spec) return;
            default_spec = true;
            out.emplace_back(std::in_place_type<catalog::AssertDefaultSpecId>,
                             base.default_spec_id());
          } else if constexpr (std::is_same_v<U, catalog::SetDefaultSortOrder>) {
            if (default_order) return;
            default_order = true;
            out.emplace_back(std::in_place_type<catalog::AssertDefaultSortOrderId>,
                             base.default_sort_order_id());
          }
        },
        update);
  }
  return out;
}

}  // namespace floe::table
