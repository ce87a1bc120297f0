#pragma once

// The REST catalog's JSON of commits (the OpenAPI document's TableUpdate and TableRequirement,
// discriminated by `action` and `type`): floe's own commit model (catalog/table_update.h) in the
// form client and server exchange. Schemas, specs, orders, snapshots and statistics use their
// spec/ JSON forms.
//
// Reading tolerates unknown members and fills what older clients omit: an add-spec without
// `spec-id` or an add-sort-order without `order-id` gets 0 (the catalog reassigns ids anyway).
// Errors are kCorruptData naming the member; kUnsupported for an action or type floe does not
// apply (add-encryption-key, view updates...), naming it.

#include "floe/catalog/table_update.h"
#include "floe/util/json.h"

namespace floe::catalog::rest {

// An add-snapshot carries every snapshot field that is set (the OpenAPI Snapshot requires a
// summary even of v1 tables).
Json TableUpdateToJson(const TableUpdate& update);
Result<TableUpdate> TableUpdateFromJson(const Json& json);

Json TableRequirementToJson(const TableRequirement& requirement);
Result<TableRequirement> TableRequirementFromJson(const Json& json);

// {"requirements": [...], "updates": [...]} (CommitTableRequest without its identifier).
Json TableCommitToJson(const TableCommit& commit);
Result<TableCommit> TableCommitFromJson(const Json& json);

}  // namespace floe::catalog::rest
