#include "floe/spec/partition_evolution.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace floe {
namespace {

bool SamePartitioning(const PartitionField& a, const PartitionField& b) {
  return a.source_ids == b.source_ids && a.transform == b.transform;
}

// The ids that fields partitioning like `field` have had in any spec, current spec first.
std::vector<int32_t> EquivalentIds(const PartitionHistory& history, const PartitionField& field) {
  std::vector<int32_t> ids;
  auto scan = [&](const PartitionSpec& spec) {
    for (const auto& existing : spec.fields()) {
      if (SamePartitioning(existing, field) &&
          std::ranges::find(ids, existing.field_id) == ids.end()) {
        ids.push_back(existing.field_id);
      }
    }
  };
  if (history.current) scan(*history.current);
  for (const auto& spec : history.specs) {
    if (spec) scan(*spec);
  }
  return ids;
}

// The field any spec of the table has under this id.
const PartitionField* ExistingField(const PartitionHistory& history, int32_t field_id) {
  if (history.current) {
    if (const auto* field = history.current->FieldById(field_id)) return field;
  }
  for (const auto& spec : history.specs) {
    if (!spec) continue;
    if (const auto* field = spec->FieldById(field_id)) return field;
  }
  return nullptr;
}

Result<int32_t> NextId(int32_t& last) {
  if (last == std::numeric_limits<int32_t>::max()) {
    return InvalidArgument("no partition field id left above {}", last);
  }
  return ++last;
}

}  // namespace

Result<PartitionSpecPtr> EvolvePartitionSpec(const PartitionHistory& history,
                                             std::vector<PartitionField> wanted,
                                             int32_t new_spec_id) {
  if (!history.current) return InvalidArgument("partition evolution needs the current spec");
  int32_t last = std::max(history.last_partition_id, history.current->last_assigned_field_id());
  for (const auto& spec : history.specs) {
    if (spec) last = std::max(last, spec->last_assigned_field_id());
  }
  std::vector<PartitionField> fields;
  std::vector<bool> placed(wanted.size(), false);
  if (history.format_version == 1) {
    for (const auto& field : history.current->fields()) {
      PartitionField kept = field;
      kept.transform = Transform::Void();
      if (!field.transform.is_void()) {
        for (size_t i = 0; i < wanted.size(); ++i) {
          if (!placed[i] && SamePartitioning(wanted[i], field)) {
            placed[i] = true;
            kept.transform = field.transform;
            kept.name = wanted[i].name;
            break;
          }
        }
      }
      fields.push_back(std::move(kept));
    }
  }
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (placed[i]) continue;
    PartitionField field = std::move(wanted[i]);
    const std::vector<int32_t> ids = EquivalentIds(history, field);
    if (!ids.empty() && history.format_version > 1) {
      field.field_id = ids.front();
    } else {
      FLOE_ASSIGN_OR_RETURN(field.field_id, NextId(last));
    }
    for (auto& existing : fields) {
      if (existing.transform.is_void() && existing.name == field.name) {
        existing.name = fmt::format("{}_{}", existing.name, existing.field_id);
      }
    }
    fields.push_back(std::move(field));
  }
  return std::make_shared<const PartitionSpec>(new_spec_id, std::move(fields));
}

Status CheckPartitionEvolution(const PartitionHistory& history, const PartitionSpec& next) {
  if (!history.current) return InvalidArgument("partition evolution needs the current spec");
  const PartitionSpec& current = *history.current;
  if (history.format_version == 1) {
    if (next.fields().size() < current.fields().size()) {
      return InvalidArgument(
          "v1 partition spec {} has {} fields, fewer than the {} of spec {}: v1 tables replace a "
          "dropped field's transform with void instead of removing it",
          next.spec_id(), next.fields().size(), current.fields().size(), current.spec_id());
    }
    for (size_t i = 0; i < current.fields().size(); ++i) {
      const PartitionField& before = current.fields()[i];
      const PartitionField& after = next.fields()[i];
      if (after.field_id != before.field_id || after.source_ids != before.source_ids) {
        return InvalidArgument(
            "v1 partition spec {} has {} at position {} where spec {} has {}: v1 tables must not "
            "reorder or remove partition fields",
            next.spec_id(), after.ToString(), i, current.spec_id(), before.ToString());
      }
      if (after.transform != before.transform && !after.transform.is_void()) {
        return InvalidArgument(
            "v1 partition field {} changes transform {} to {}: only void may replace a v1 "
            "partition field's transform",
            after.ToString(), before.transform.ToString(), after.transform.ToString());
      }
    }
  }
  for (const auto& field : next.fields()) {
    if (const PartitionField* existing = ExistingField(history, field.field_id)) {
      const bool dropped = field.transform.is_void() && field.source_ids == existing->source_ids;
      if (!SamePartitioning(*existing, field) && !dropped) {
        return InvalidArgument(
            "partition field {} reuses the id of {}, which partitions differently: field ids "
            "must keep their meaning across specs",
            field.ToString(), existing->ToString());
      }
      continue;
    }
    if (field.field_id <= history.last_partition_id) {
      return InvalidArgument(
          "partition field {} is new but its id is not above last-partition-id {}",
          field.ToString(), history.last_partition_id);
    }
    const std::vector<int32_t> ids = EquivalentIds(history, field);
    if (!ids.empty() && history.format_version > 1) {
      return InvalidArgument(
          "partition field {} must reuse field id {}, which an existing spec has for the same "
          "source and transform",
          field.ToString(), ids.front());
    }
  }
  return Ok();
}

}  // namespace floe
