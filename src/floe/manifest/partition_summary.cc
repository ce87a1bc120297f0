#include "floe/manifest/partition_summary.h"

#include <cmath>

namespace floe::manifest {

PartitionSummary::PartitionSummary(std::shared_ptr<const StructType> partition_type)
    : type_(std::move(partition_type)), stats_(type_->fields().size()) {}

Status PartitionSummary::Update(const std::vector<Literal>& partition) {
  auto fields = type_->fields();
  if (partition.size() != fields.size()) {
    return InvalidArgument("partition tuple has {} values, the partition type {} fields",
                           partition.size(), fields.size());
  }
  for (size_t i = 0; i < partition.size(); ++i) {
    const Literal& value = partition[i];
    Stats& s = stats_[i];
    if (value.is_null() || fields[i].type->id() == TypeId::kUnknown) {
      s.contains_null = true;
      continue;
    }
    if (!value.type()->Equals(*fields[i].type)) {
      return InvalidArgument("partition field '{}' is {}, not {}", fields[i].name,
                             fields[i].type->ToString(), value.type()->ToString());
    }
    if ((value.type_id() == TypeId::kFloat && std::isnan(value.float_value())) ||
        (value.type_id() == TypeId::kDouble && std::isnan(value.double_value()))) {
      s.contains_nan = true;
      continue;
    }
    if (!s.lower || value.Compare(*s.lower) == std::partial_ordering::less) s.lower = value;
    if (!s.upper || value.Compare(*s.upper) == std::partial_ordering::greater) s.upper = value;
  }
  return Ok();
}

Result<std::vector<FieldSummary>> PartitionSummary::Summaries() const {
  std::vector<FieldSummary> out;
  for (const Stats& s : stats_) {
    FieldSummary summary;
    summary.contains_null = s.contains_null;
    summary.contains_nan = s.contains_nan;
    if (s.lower) {
      FLOE_ASSIGN_OR_RETURN(summary.lower_bound, s.lower->ToBinary());
      FLOE_ASSIGN_OR_RETURN(summary.upper_bound, s.upper->ToBinary());
    }
    out.push_back(std::move(summary));
  }
  return out;
}

}  // namespace floe::manifest
