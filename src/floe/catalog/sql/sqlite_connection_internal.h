#pragma once

// The SQLite backend of SqlConnection: one database file, opened (and created when missing) in
// WAL mode so that readers never block the writer, with a busy timeout so that concurrent writers
// (threads or processes) wait for the write lock instead of failing at once. Begin() takes the
// write lock immediately (BEGIN IMMEDIATE).
//
// Errors: kIO naming the file when it cannot be opened or is not a database.

#include <memory>
#include <string>

#include "floe/catalog/sql/connection_internal.h"

namespace floe::catalog {

Result<std::unique_ptr<SqlConnection>> OpenSqliteConnection(const std::string& path,
                                                            int busy_timeout_ms);

}  // namespace floe::catalog
