#pragma once

// The SQL form of WriteRows (stream/iceberg/write_rows/write_rows.h): a connector table of
// default_catalog WITH ('connector' = 'iceberg', 'use-dynamic-sink' = 'true', 'table' =
// 'db.events_{kind}', 'catalog-name' = ..., <catalog options>) is a sink whose rows go to many
// Iceberg tables of that catalog, the destination of each row filled in from its fields. Its
// columns are what INSERT writes; the tables are created (and evolved) by WriteRows as rows
// arrive, so CREATE TABLE creates none. Options (also as an INSERT's OPTIONS hint):
//
//   table                      the destination: a template ("db.events_{region}_{kind}", fields
//                              by dotted path) or one table; without a database, in
//                              'catalog-database' (default default_database)
//   triggering-frequency       duration ("60 s"): commit rounds of an unbounded INSERT (default:
//                              every checkpoint); a bounded INSERT commits at its end
//   direct-write-byte-limit    bytes: with hash distribution, smaller batches skip the shuffle
//   distribution-mode          none (default) | hash; range is refused, as in Beam
//   autosharding               true: hash keys split over writers by volume (hash only)
//   partition-fields           "day(ts), bucket(id, 16)": the spec of created tables, applied
//                              to existing ones online
//   sort-fields                "ts desc, id": the sort order of created tables
//   keep | drop | only         written fields: a column list, or the struct column whose members
//                              become the columns
//   metadata-refresh-interval  duration: how stale cached table metadata may get (default 60 s)
//   drop-unused-columns        true: table columns the rows lack are dropped
//   upsert-enabled             true: upsert by the connector table's PRIMARY KEY
//   branch, write-parallelism, sink-id, write-format, target-file-size-bytes,
//   compression-codec, compression-level, max-open-files, max-continuous-empty-commits
//                              as for the IcebergSink (sink_options.h)
//   any other option           a property of the tables created
//
// Errors (kInvalidArgument naming the table and option): a missing catalog-name or table, a
// malformed value, what WriteRows refuses (range, autosharding without hash...), upsert without a
// primary key, INSERT OVERWRITE or PARTITION (...) into a dynamic sink, reading from one.

#include <map>
#include <string>
#include <string_view>

#include "floe/sql/session.h"
#include "floe/stream/data_stream.h"

namespace floe::sql {

// WITH ('connector' = 'iceberg', 'use-dynamic-sink' = 'true').
bool IsDynamicSinkTable(const ConnectorTable& table);

// What CREATE TABLE checks: the options parse and name a catalog that opens.
Status CheckDynamicSinkTable(std::string_view name, const ConnectorTable& table);

// The connector table's columns as the batch schema an INSERT writes.
Result<BatchSchemaPtr> DynamicSinkColumns(const ConnectorTable& table);

// Adds WriteRows for `rows` (already the sink's columns) to the job; `hints` override the table's
// options. Returns the committed snapshots (dynamic_committer.h's CommittedSnapshotSchema).
Result<stream::DataStream> AddDynamicSink(std::string_view name, const ConnectorTable& table,
                                          const std::map<std::string, std::string>& hints,
                                          const stream::DataStream& rows);

}  // namespace floe::sql
