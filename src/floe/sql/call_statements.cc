#include "floe/sql/call_statements.h"

namespace floe::sql {

Result<StatementResult> Execute(Session&, const Call&) {
  return Unsupported("Call is not implemented yet");
}

}  // namespace floe::sql
