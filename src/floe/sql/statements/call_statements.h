#pragma once

// CALL [catalog.]system.procedure(...): rewrite_data_files, expire_snapshots,
// rollback_to_snapshot, set_current_snapshot; arguments by position or by name (`table => 'db.t'`).

#include "floe/sql/session.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const Call& statement);

}  // namespace floe::sql
