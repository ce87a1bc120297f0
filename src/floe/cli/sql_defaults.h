#pragma once

// `floe sql --defaults FILE.yaml` (Flink's old -d/--defaults, sql-client-defaults.yaml): the
// file's catalogs become CREATE CATALOG statements and its `configuration` map SET statements,
// which the client runs before anything else. The form of the connector's documentation:
//
//   catalogs:
//     - name: my_catalog
//       type: iceberg
//       catalog-type: hadoop
//       warehouse: /data/warehouse     # and any other catalog property
//   configuration:
//     execution.runtime-mode: batch
//
// Errors name the file and the line: YAML that does not parse, a section other than these two, a
// catalog without a name, a value that is not a plain scalar. Each statement carries the line
// and column of its entry, for the errors of running it.

#include <string>
#include <vector>

#include "floe/sql/syntax/ast.h"
#include "floe/util/error.h"

namespace floe::cli {

Result<std::vector<sql::Statement>> ReadSqlDefaults(const std::string& path);

}  // namespace floe::cli
