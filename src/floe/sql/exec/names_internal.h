#pragma once

// Operator names must be unique within a job (they name the operator's checkpoint state): the
// relational operators number theirs by the graph's size, which is the same on every rebuild of
// the same plan, so a restarted job finds its state again.

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "floe/stream/data_stream.h"
#include "floe/stream/job_graph.h"

namespace floe::sql::exec {

inline std::string NextOperatorName(const stream::DataStream& input, std::string_view kind) {
  return fmt::format("{}#{}", kind, input.environment().graph().nodes().size());
}

}  // namespace floe::sql::exec
