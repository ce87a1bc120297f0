// Fuzz target: the SQL binder and planner, behind the session. The input is a SQL script; each
// statement that parses is carried out in a fresh session that holds, all in memory, Iceberg
// tables of every column type (v1, v2 partitioned, v2 with a key) in the catalog `floe`
// (database `default`, current, as the embedded catalog is), connector tables (datagen with a
// watermark, filesystem csv, kafka json with metadata columns) in default_catalog and a view.
// Names, types, expressions, functions, windows, joins and subqueries must bind and plan to a
// plan or an error, never a crash, a sanitizer report or a hang.
//
// Nothing runs a job and nothing leaves the process: a query, and the query of an INSERT or a
// CREATE TABLE ... AS, is planned as EXPLAIN plans it; CREATE CATALOG adds an empty in-memory
// catalog instead of opening the one its options name; CALL, and CREATE or ALTER TABLE with
// 'connector' = 'iceberg' (whose catalog would be opened from their options), are skipped. Every
// other statement (DDL on the in-memory catalogs, views, SET, SHOW, DESCRIBE, EXPLAIN) runs as
// the session runs it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "floe/catalog/memory_catalog.h"
#include "floe/io/memory_file_io.h"
#include "floe/sql/session.h"
#include "floe/sql/syntax/parser.h"
#include "floe/util/strings.h"

namespace {

using floe::sql::Session;
using floe::sql::Statement;

// At most this many statements of one input run: each may plan a whole query.
constexpr size_t kMaxStatements = 64;

// The tables every input finds. Column names follow the types, so that a mutated query still
// names columns that exist.
constexpr std::string_view kSetup[] = {
    "CREATE TABLE every_type (b BOOLEAN, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
    "dec DECIMAL(10, 2), s STRING, bin BYTES, dt DATE, tm TIME, ts TIMESTAMP(6), "
    "tz TIMESTAMP_LTZ(6), arr ARRAY<INT>, m MAP<STRING, BIGINT>, r ROW<a INT, b STRING>) "
    "PARTITIONED BY (days(ts), bucket(4, i)) WITH ('format-version' = '2')",
    "CREATE TABLE keyed (id BIGINT NOT NULL, s STRING, ts TIMESTAMP(6), PRIMARY KEY (id) NOT "
    "ENFORCED) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true')",
    "CREATE TABLE v1 (id INT, s STRING, dec DECIMAL(38, 10)) PARTITIONED BY (truncate(4, s)) "
    "WITH ('format-version' = '1')",
    "CREATE TEMPORARY VIEW every_view AS SELECT i, s, ts FROM every_type WHERE i > 0",
    "CREATE TABLE default_catalog.default_database.gen (id BIGINT, s STRING, d DOUBLE, b BOOLEAN, "
    "dt DATE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH "
    "('connector' = 'datagen', 'number-of-rows' = '10')",
    "CREATE TABLE default_catalog.default_database.files (id INT, s STRING, dt DATE) WITH "
    "('connector' = 'filesystem', 'path' = '/tmp', 'format' = 'csv')",
    "CREATE TABLE default_catalog.default_database.events (id BIGINT, s STRING, "
    "`offset` BIGINT METADATA VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH "
    "('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:1', "
    "'format' = 'json', 'scan.startup.mode' = 'earliest-offset')",
};

// Adds an empty in-memory catalog with the database `default`; kAlreadyExists for a name taken.
floe::Status AddMemoryCatalog(Session& session, std::string name) {
  auto catalog = std::make_shared<floe::catalog::MemoryCatalog>(
      name, std::make_shared<floe::io::MemoryFileIO>(), "mem:/" + name);
  std::string database(floe::sql::kEmbeddedDatabase);
  FLOE_RETURN_IF_ERROR(catalog->CreateNamespace({{database}}, {}));
  // catalog-impl: job tasks share this instance instead of opening one from the properties.
  return session.AddCatalog({.name = std::move(name),
                             .catalog = std::move(catalog),
                             .properties = {{"type", "iceberg"}, {"catalog-impl", "memory"}},
                             .current_database = std::move(database)});
}

template <typename T>
void Check(const floe::Result<T>& result, std::string_view what) {
  if (result) return;
  std::fprintf(stderr, "binder_fuzz setup: %.*s: %s\n", static_cast<int>(what.size()), what.data(),
               result.error().ToString().c_str());
  std::abort();
}

void SetUp(Session& session) {
  Check(AddMemoryCatalog(session, std::string(floe::sql::kEmbeddedCatalog)), "catalog");
  Check(session.UseCatalog(floe::sql::kEmbeddedCatalog), "USE CATALOG");
  for (std::string_view sql : kSetup) Check(session.ExecuteSql(sql), sql);
}

// Options that make a connector table an Iceberg one, whose catalog the planner would open from
// them (on the local disk or the network).
bool OpensCatalog(const floe::sql::Options& options) {
  for (const auto& [key, value] : options) {
    if (floe::AsciiLower(key) == "connector" && floe::AsciiLower(value) == "iceberg") return true;
  }
  return false;
}

// EXPLAIN of `query`: planned, not run.
void Plan(Session& session, floe::sql::QueryPtr query, floe::sql::Position position) {
  if (!query) return;
  Statement explain{floe::sql::Explain{std::make_unique<Statement>(
                        Statement{floe::sql::QueryStatement{std::move(query)}, position})},
                    position};
  (void)session.Execute(explain);
}

void Run(Session& session, Statement& statement) {
  std::visit(
      [&](auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, floe::sql::QueryStatement> ||
                      std::is_same_v<T, floe::sql::Insert>) {
          Plan(session, std::move(body.query), statement.position);
        } else if constexpr (std::is_same_v<T, floe::sql::CreateTable>) {
          if (body.as_query) {
            Plan(session, std::move(body.as_query), statement.position);
          } else if (!OpensCatalog(body.options)) {
            (void)session.Execute(statement);
          }
        } else if constexpr (std::is_same_v<T, floe::sql::AlterTable>) {
          if (!OpensCatalog(body.options)) (void)session.Execute(statement);
        } else if constexpr (std::is_same_v<T, floe::sql::CreateCatalog>) {
          (void)AddMemoryCatalog(session, body.name);
        } else if constexpr (!std::is_same_v<T, floe::sql::Call>) {
          (void)session.Execute(statement);
        }
      },
      statement.body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view script(reinterpret_cast<const char*>(data), size);
  auto pieces = floe::sql::SplitStatements(script);
  if (!pieces) return 0;
  Session session(floe::sql::SessionOptions{.embedded_warehouse = "", .checkpoint_root = ""});
  SetUp(session);
  size_t ran = 0;
  for (const floe::sql::ScriptPiece& piece : pieces->pieces) {
    if (ran == kMaxStatements) break;
    auto statement = floe::sql::ParseStatement(piece.text);
    if (!statement) continue;
    ++ran;
    Run(session, *statement);
  }
  return 0;
}
