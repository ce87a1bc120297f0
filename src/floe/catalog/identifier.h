#pragma once

// Names of namespaces and tables in a catalog. A namespace is a path of one or more levels
// (`db`, or `a.b` for catalogs that nest); a table identifier is a namespace plus a table name.
//
// Every part is checked before it reaches a path or a query: empty parts, `.` and `..`, `/`, `\`,
// NUL and other control characters are rejected with kInvalidArgument, so that no identifier can
// name a file outside the warehouse.

#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::catalog {

struct Namespace {
  std::vector<std::string> levels;

  bool empty() const { return levels.empty(); }
  // Levels joined with '.': "db", "a.b".
  std::string ToString() const;
  // Splits on '.'; validates every level.
  static Result<Namespace> Parse(std::string_view text);

  friend bool operator==(const Namespace&, const Namespace&) = default;
  friend auto operator<=>(const Namespace&, const Namespace&) = default;
};

struct TableIdentifier {
  Namespace ns;
  std::string name;

  // "db.table", "a.b.table".
  std::string ToString() const;
  // The last dotted part is the table name, the rest the namespace (at least one level).
  static Result<TableIdentifier> Parse(std::string_view text);

  friend bool operator==(const TableIdentifier&, const TableIdentifier&) = default;
  friend auto operator<=>(const TableIdentifier&, const TableIdentifier&) = default;
};

// kInvalidArgument naming `what` ("namespace", "table name") when part is not a safe name.
Status ValidateIdentifierPart(std::string_view part, std::string_view what);
Status Validate(const Namespace& ns);
Status Validate(const TableIdentifier& ident);

}  // namespace floe::catalog
