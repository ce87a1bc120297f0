#pragma once

// The tables of WriteRows' destinations as one writer subtask sees them: each destination's table
// is created on first sight (its namespace too), evolved so that the rows arriving for it fit, and
// cached, so that the catalog is asked about a table once per refresh interval rather than per row
// or batch.
//
// Evolution (top-level columns, always towards what Iceberg allows without rewriting files):
//   - a row column the table lacks is added as an optional column;
//   - a row column of a wider type widens the table's (int -> long, float -> double, decimal to a
//     larger precision: spec/schema_update.h's IsPromotionAllowed); a narrower one is widened on
//     write instead;
//   - a required table column that the rows lack, or hold as nullable, becomes optional;
//   - table columns the rows lack are written as null (their initial default when they have one),
//     and dropped only with drop_unused_columns;
//   - a destination whose partition fields differ from the table's current spec gets a new spec.
// Nested columns (lists, maps, structs) are not evolved: they fit when their nested fields match
// the table's by name (the rows' nested field ids are their own), leaves of the table's type or
// one it widens, and the table's struct fields the rows lack optional.
// Schema and spec changes commit through the table layer (retrying on conflicts); when another
// writer or job changed the table first, the change is recomputed on the refreshed table.
//
// What can go wrong: the catalog's errors, a row column whose type cannot become the table's
// (kInvalidArgument naming table, column and both types), bad partition or sort fields.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/stream/iceberg/write_rows/destinations.h"

namespace floe::table {
class Table;
}

namespace floe::stream {

struct DestinationTablesOptions {
  int64_t refresh_interval_ms = 60'000;  // how stale cached table metadata may get
  bool drop_unused_columns = false;
  std::function<int64_t()> clock;  // epoch ms; default util's NowMs
};

class DestinationTables {
 public:
  struct Entry {
    Destination destination;
    std::shared_ptr<table::Table> table;
    int64_t refreshed_ms = 0;
    // Bumped whenever the table's schema or spec changed under this cache: writers of the old
    // shape must close their files and reopen.
    int64_t version = 0;
    // The columns last found to fit at `fits_version`: batches of one stream share their schema
    // object, so most calls are answered by comparing pointers (held, so never reused).
    BatchSchemaPtr fits;
    int64_t fits_version = -1;
  };

  DestinationTables(std::shared_ptr<catalog::Catalog> catalog, DynamicDestinations destinations,
                    DestinationTablesOptions options);
  ~DestinationTables();

  // The table for `key`, created or evolved so that rows with these columns fit it.
  Result<Entry*> Get(const std::string& key, const BatchSchemaPtr& columns);

  // Catalog calls made so far (loads, creates, refreshes, schema and spec commits).
  int64_t catalog_requests() const { return catalog_requests_; }

 private:
  Result<std::shared_ptr<table::Table>> LoadOrCreate(const Destination& destination,
                                                     const BatchSchema& columns);
  // Applies the schema and spec changes rows of `columns` need; true when something changed.
  Result<bool> Evolve(Entry& entry, const BatchSchema& columns);
  Result<bool> EvolveSpec(Entry& entry);
  int64_t Now() const;

  std::shared_ptr<catalog::Catalog> catalog_;
  DynamicDestinations destinations_;
  DestinationTablesOptions options_;
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> entries_;
  // Column sets already checked against an entry's current schema: (key, columns) -> version.
  std::map<std::pair<std::string, std::string>, int64_t> checked_;
  std::set<std::string, std::less<>> namespaces_;  // known to exist: not created again
  int64_t catalog_requests_ = 0;
};

// Rows of any columns as rows of the table's current schema, matched by name (nested fields too):
// columns in the table's order and types (narrower types widened), missing ones null or their
// initial default.
// Columns the table lacks are an error (Evolve adds them first). Row kinds are kept.
Result<RecordBatch> ConformToTable(const RecordBatch& rows, const Schema& schema,
                                   const BatchSchemaPtr& table_columns);

}  // namespace floe::stream
