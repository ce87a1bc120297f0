#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {

Result<stream::DataStream> UnionAll(const std::vector<stream::DataStream>& inputs) {
  if (inputs.empty()) return InvalidArgument("UNION ALL needs at least one input");
  if (inputs.size() == 1) return inputs[0];
  const BatchSchema& first = *inputs[0].schema();
  for (size_t i = 1; i < inputs.size(); ++i) {
    const BatchSchema& other = *inputs[i].schema();
    if (other.num_fields() != first.num_fields()) {
      return InvalidArgument("UNION ALL: input 1 has {} columns and input {} has {}",
                             first.num_fields(), i + 1, other.num_fields());
    }
    for (int c = 0; c < first.num_fields(); ++c) {
      if (!first.field(c).type->Equals(*other.field(c).type)) {
        return InvalidArgument("UNION ALL: column {} ('{}') is {} in input 1 but {} in input {}",
                               c + 1, first.field(c).name, first.field(c).type->ToString(),
                               other.field(c).type->ToString(), i + 1);
      }
    }
  }
  std::vector<stream::DataStream> others(inputs.begin() + 1, inputs.end());
  return inputs[0].Union(others, NextOperatorName(inputs[0], "UnionAll"));
}

}  // namespace floe::sql::exec
