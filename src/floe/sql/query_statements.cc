#include "floe/sql/query_statements.h"

namespace floe::sql {

Result<StatementResult> Execute(Session&, const QueryStatement&) {
  return Unsupported("QueryStatement is not implemented yet");
}

Result<StatementResult> Execute(Session&, const Explain&) {
  return Unsupported("Explain is not implemented yet");
}

}  // namespace floe::sql
