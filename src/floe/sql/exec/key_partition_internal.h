#pragma once

// Routes rows by the hash of some columns (by index: SQL column names may repeat), so that
// equal keys meet in one subtask of the next operator: GROUP BY keys, join keys.

#include <memory>
#include <vector>

#include "floe/stream/data_stream.h"

namespace floe::sql::exec {

stream::DataStream PartitionByColumns(const stream::DataStream& input, std::vector<int> columns);

}  // namespace floe::sql::exec
