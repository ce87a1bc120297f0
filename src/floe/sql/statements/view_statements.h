#pragma once

// Views: CREATE [TEMPORARY] VIEW [IF NOT EXISTS] v [(columns)] [COMMENT '...'] AS query,
// DROP [TEMPORARY] VIEW [IF EXISTS] v, SHOW VIEWS [FROM|IN db] [[NOT] LIKE|ILIKE 'pattern'] and
// SHOW CREATE VIEW v. A view is a query a FROM item plans where it names it (plan/with.cc).
// Temporary views live in the session in any catalog and database and hide a table or permanent
// view of the same name; permanent ones are held by default_catalog, which like Flink's in-memory
// catalog lives as long as the session. The Iceberg catalogs hold no views (floe writes no Iceberg
// view metadata yet): a permanent view there is kUnsupported, pointing to CREATE TEMPORARY VIEW.
//
// CREATE VIEW plans its query once, so a view over a missing table or with a type error is refused
// when it is made. Errors use Flink's words: a temporary view that exists ("Temporary table ...
// already exists"), a name taken by a table or view, an unknown view on DROP without IF EXISTS.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/sql/session.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const CreateView& statement);
Result<StatementResult> Execute(Session& session, const DropView& statement);
Result<StatementResult> Execute(Session& session, const ShowViews& statement);
Result<StatementResult> Execute(Session& session, const ShowCreateView& statement);

// The names of the views (temporary and permanent, once each) in the database `database`.
std::vector<std::string> ViewNames(Session& session, const ResolvedName& database);

// Whether `name` passes SHOW's [NOT] LIKE / ILIKE filter (none: every name does).
Result<bool> ShowLikeMatches(const std::optional<ShowLike>& like, std::string_view name);

}  // namespace floe::sql
