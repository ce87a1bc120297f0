#pragma once

// The PostgreSQL backend of SqlConnection, over libpq. Every statement goes through
// PQexecParams, so values are always sent apart from the SQL text. Nothing reconnects: once the
// connection is lost, every call fails with kIO and broken() is true.
//
// Errors: kIO with libpq's message (the conninfo's password is never part of it) when the server
// cannot be reached or refuses the login.

#include <memory>
#include <optional>
#include <string>

#include "floe/catalog/sql/connection_internal.h"

namespace floe::catalog {

// conninfo is anything libpq accepts: a `postgresql://` URI or `key=value` pairs. user and
// password, when set, override those in conninfo.
Result<std::unique_ptr<SqlConnection>> OpenPostgresConnection(
    const std::string& conninfo, const std::optional<std::string>& user,
    const std::optional<std::string>& password);

}  // namespace floe::catalog
