#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {

Result<stream::DataStream> Join(const stream::DataStream&, const stream::DataStream&, JoinKind,
                                std::vector<int>, std::vector<int>, JoinCondition) {
  return Unsupported("joins are not implemented yet");
}

}  // namespace floe::sql::exec
