#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {

Result<stream::DataStream> UnionAll(const std::vector<stream::DataStream>&) {
  return Unsupported("UNION ALL is not implemented yet");
}

}  // namespace floe::sql::exec
