#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {

Result<stream::DataStream> Sort(const stream::DataStream&, std::vector<SortKey>,
                                std::optional<int64_t>, int64_t) {
  return Unsupported("ORDER BY is not implemented yet");
}
Result<stream::DataStream> UnionAll(const std::vector<stream::DataStream>&) {
  return Unsupported("UNION ALL is not implemented yet");
}
Result<stream::DataStream> Join(const stream::DataStream&, const stream::DataStream&, JoinKind,
                                std::vector<int>, std::vector<int>, JoinCondition) {
  return Unsupported("joins are not implemented yet");
}

}  // namespace floe::sql::exec
