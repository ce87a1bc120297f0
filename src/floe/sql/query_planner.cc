#include "floe/sql/query_planner.h"

namespace floe::sql {

Result<PlannedQuery> PlanQuery(Session&, const Query&, stream::StreamEnvironment&) {
  return Unsupported("queries are not implemented yet");
}

}  // namespace floe::sql
