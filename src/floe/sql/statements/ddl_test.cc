// What the DDL statements did, checked against sources independent of floe's readers: the table
// metadata JSON as written to disk (read with util/json.h, located through the hadoop layout's
// version-hint.text or the catalog's own database), and the sql catalog's tables read with the
// sqlite3 and psql command-line clients. Expected Iceberg types come from the connector
// documentation's "Flink to Iceberg" table.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "floe/catalog/sql/sql_test_util.h"
#include "floe/spec/schema.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/sql/session.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/table/table.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using catalog::sqltest::Backend;
using catalog::sqltest::Lines;
using catalog::sqltest::QueryWithClient;

class DdlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = std::make_unique<Session>(
        SessionOptions{.embedded_warehouse = (dir_.path() / "warehouse").string()});
    ASSERT_TRUE(session_->Open().has_value());
  }

  void Run(const std::string& sql) {
    auto result = session_->ExecuteSql(sql);
    ASSERT_TRUE(result.has_value()) << sql << "\n" << result.error().ToString();
  }

  std::vector<std::string> Rows(const std::string& sql) {
    std::vector<std::string> lines;
    auto result = session_->ExecuteSql(sql);
    EXPECT_TRUE(result.has_value()) << sql << "\n" << result.error().ToString();
    if (!result.has_value() || result->rows == nullptr) return lines;
    while (true) {
      auto batch = result->rows->Next();
      EXPECT_TRUE(batch.has_value());
      if (!batch.has_value() || !batch->has_value()) break;
      for (int64_t row = 0; row < (*batch)->num_rows(); ++row) {
        std::string line;
        for (int c = 0; c < (*batch)->num_columns(); ++c) {
          line += (c > 0 ? " | " : "") + FormatCell((*batch)->column(c), row);
        }
        lines.push_back(std::move(line));
      }
    }
    return lines;
  }

  std::string Error(const std::string& sql) {
    auto result = session_->ExecuteSql(sql);
    EXPECT_FALSE(result.has_value()) << sql << ": expected an error";
    return result.has_value() ? "" : result.error().message();
  }

  // The embedded catalog's SQLite file, inside its warehouse folder.
  std::string EmbeddedDb() const { return (dir_.path() / "warehouse" / "catalog.db").string(); }

  floe::testing::TempDir dir_;
  std::unique_ptr<Session> session_;
};

Json ReadJson(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream text;
  text << in.rdbuf();
  auto json = Json::Parse(text.str());
  EXPECT_TRUE(json.has_value()) << path;
  return json.has_value() ? *json : Json();
}

// The current metadata of a hadoop-layout table folder, found through version-hint.text.
Json HadoopMetadata(const fs::path& table) {
  std::ifstream hint(table / "metadata" / "version-hint.text");
  std::string version;
  hint >> version;
  EXPECT_FALSE(version.empty()) << table;
  return ReadJson(table / "metadata" / ("v" + version + ".metadata.json"));
}

// The current metadata of a sql-catalog table, found through the catalog database.
Json SqlMetadata(Backend backend, const std::string& target, const std::string& catalog,
                 const std::string& ns, const std::string& table) {
  auto out = QueryWithClient(backend, target,
                             "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = '" +
                                 catalog + "' AND table_namespace = '" + ns +
                                 "' AND table_name = '" + table + "'");
  EXPECT_EQ(out.exit_code, 0) << out.err;
  std::vector<std::string> lines = Lines(out.out);
  EXPECT_EQ(lines.size(), 1u) << catalog << "." << ns << "." << table;
  if (lines.size() != 1) return Json();
  std::string location = lines[0];
  if (location.starts_with("file:")) location = location.substr(5);
  return ReadJson(location);
}

const Json& CurrentSchema(const Json& metadata) {
  int64_t id = metadata.Find("current-schema-id")->as_int();
  for (const Json& schema : metadata.Find("schemas")->as_array()) {
    if (schema.Find("schema-id")->as_int() == id) return schema;
  }
  ADD_FAILURE() << "no current schema";
  static const Json kNone;
  return kNone;
}

const Json* Field(const Json& schema, std::string_view name) {
  for (const Json& field : schema.Find("fields")->as_array()) {
    if (field.Find("name")->as_string() == name) return &field;
  }
  ADD_FAILURE() << "no field " << name;
  return nullptr;
}

std::string TypeOf(const Json& schema, std::string_view name) {
  const Json* field = Field(schema, name);
  if (field == nullptr) return "";
  const Json& type = *field->Find("type");
  return type.is_string() ? type.as_string() : type.Find("type")->as_string();
}

// "transform(source name) as name" for each field of the default spec.
std::vector<std::string> DefaultSpec(const Json& metadata) {
  int64_t id = metadata.Find("default-spec-id")->as_int();
  const Json& schema = CurrentSchema(metadata);
  std::vector<std::string> fields;
  for (const Json& spec : metadata.Find("partition-specs")->as_array()) {
    if (spec.Find("spec-id")->as_int() != id) continue;
    for (const Json& field : spec.Find("fields")->as_array()) {
      std::string source;
      for (const Json& column : schema.Find("fields")->as_array()) {
        if (column.Find("id")->as_int() == field.Find("source-id")->as_int()) {
          source = column.Find("name")->as_string();
        }
      }
      fields.push_back(field.Find("transform")->as_string() + "(" + source + ") as " +
                       field.Find("name")->as_string());
    }
  }
  return fields;
}

std::string Property(const Json& metadata, std::string_view key) {
  const Json* value = metadata.Find("properties")->Find(key);
  return value == nullptr ? "<absent>" : value->as_string();
}

std::vector<int64_t> IdentifierIds(const Json& schema) {
  std::vector<int64_t> ids;
  if (const Json* list = schema.Find("identifier-field-ids")) {
    for (const Json& id : list->as_array()) ids.push_back(id.as_int());
  }
  return ids;
}

TEST_F(DdlTest, EveryFlinkTypeBecomesTheDocumentedIcebergType) {
  std::string warehouse = (dir_.path() / "hw").string();
  Run("CREATE CATALOG hc WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='" +
      warehouse + "')");
  Run("CREATE TABLE hc.`default`.all_types (c_boolean BOOLEAN, c_tinyint TINYINT, c_smallint "
      "SMALLINT, c_integer INTEGER, c_bigint BIGINT, c_float FLOAT, c_double DOUBLE, c_char "
      "CHAR(3), c_varchar VARCHAR(20), c_string STRING, c_binary BINARY(16), c_varbinary "
      "VARBINARY(20), c_decimal DECIMAL(38, 10), c_date DATE, c_time TIME, c_timestamp "
      "TIMESTAMP, c_timestamp_ltz TIMESTAMP_LTZ(6), c_array ARRAY<BIGINT>, c_map MAP<STRING, "
      "DOUBLE>, c_multiset MULTISET<STRING>, c_row ROW<x INT, y STRING NOT NULL>)");
  Json metadata = HadoopMetadata(fs::path(warehouse) / "default" / "all_types");
  const Json& schema = CurrentSchema(metadata);
  // Flink to Iceberg, row by row (binary/varbinary as types_internal.h reads them).
  EXPECT_EQ(TypeOf(schema, "c_boolean"), "boolean");
  EXPECT_EQ(TypeOf(schema, "c_tinyint"), "int");
  EXPECT_EQ(TypeOf(schema, "c_smallint"), "int");
  EXPECT_EQ(TypeOf(schema, "c_integer"), "int");
  EXPECT_EQ(TypeOf(schema, "c_bigint"), "long");
  EXPECT_EQ(TypeOf(schema, "c_float"), "float");
  EXPECT_EQ(TypeOf(schema, "c_double"), "double");
  EXPECT_EQ(TypeOf(schema, "c_char"), "string");
  EXPECT_EQ(TypeOf(schema, "c_varchar"), "string");
  EXPECT_EQ(TypeOf(schema, "c_string"), "string");
  EXPECT_EQ(TypeOf(schema, "c_binary"), "fixed[16]");
  EXPECT_EQ(TypeOf(schema, "c_varbinary"), "binary");
  EXPECT_EQ(TypeOf(schema, "c_decimal"), "decimal(38, 10)");
  EXPECT_EQ(TypeOf(schema, "c_date"), "date");
  EXPECT_EQ(TypeOf(schema, "c_time"), "time");
  EXPECT_EQ(TypeOf(schema, "c_timestamp"), "timestamp");
  EXPECT_EQ(TypeOf(schema, "c_timestamp_ltz"), "timestamptz");
  EXPECT_EQ(TypeOf(schema, "c_array"), "list");
  EXPECT_EQ(Field(schema, "c_array")->Find("type")->Find("element")->as_string(), "long");
  EXPECT_EQ(TypeOf(schema, "c_map"), "map");
  EXPECT_EQ(Field(schema, "c_map")->Find("type")->Find("key")->as_string(), "string");
  EXPECT_EQ(Field(schema, "c_map")->Find("type")->Find("value")->as_string(), "double");
  // multiset -> map of the element to its count.
  const Json& multiset = *Field(schema, "c_multiset")->Find("type");
  EXPECT_EQ(multiset.Find("type")->as_string(), "map");
  EXPECT_EQ(multiset.Find("key")->as_string(), "string");
  EXPECT_EQ(multiset.Find("value")->as_string(), "int");
  EXPECT_TRUE(multiset.Find("value-required")->as_bool());
  EXPECT_EQ(TypeOf(schema, "c_row"), "struct");
  const Json& row = *Field(schema, "c_row")->Find("type");
  ASSERT_EQ(row.Find("fields")->as_array().size(), 2u);
  EXPECT_EQ(row.Find("fields")->as_array()[1].Find("name")->as_string(), "y");
  EXPECT_TRUE(row.Find("fields")->as_array()[1].Find("required")->as_bool());
  // Top-level columns are numbered 1..n as Iceberg numbers a new table's columns.
  EXPECT_EQ(Field(schema, "c_boolean")->Find("id")->as_int(), 1);
  EXPECT_EQ(Field(schema, "c_row")->Find("id")->as_int(), 21);
}

TEST_F(DdlTest, IcebergTypesFlinkCannotCreateAreShownAsTheDocumentedFlinkTypes) {
  FLOE_ASSERT_OK_AND_ASSIGN(SessionCatalog * floe, session_->FindCatalog("floe"));
  catalog::CreateTableRequest request;
  std::vector<NestedField> fields = {
      NestedField{.id = 1, .name = "u", .type = types::Uuid(), .required = true},
      NestedField{.id = 2, .name = "f", .type = types::Fixed(7)},
      NestedField{.id = 3, .name = "b", .type = types::Binary()},
      NestedField{.id = 4, .name = "s", .type = types::String()},
      NestedField{.id = 5, .name = "t", .type = types::Timestamp()},
      NestedField{.id = 6, .name = "tz", .type = types::TimestampTz()}};
  FLOE_ASSERT_OK_AND_ASSIGN(request.schema, Schema::Make(std::move(fields)));
  catalog::TableIdentifier ident{catalog::Namespace{{"default"}}, "made_elsewhere"};
  FLOE_ASSERT_OK(floe->catalog->CreateTable(ident, request));
  // Iceberg to Flink: uuid -> binary(16), fixed(N) -> binary(N), binary -> varbinary(max) (BYTES),
  // string -> varchar(max) (STRING), timestamp -> timestamp(6), timestamptz -> timestamp_ltz(6).
  EXPECT_EQ(Rows("DESCRIBE made_elsewhere"),
            (std::vector<std::string>{
                "u | BINARY(16) | FALSE |  |  | ", "f | BINARY(7) | TRUE |  |  | ",
                "b | BYTES | TRUE |  |  | ", "s | STRING | TRUE |  |  | ",
                "t | TIMESTAMP(6) | TRUE |  |  | ", "tz | TIMESTAMP_LTZ(6) | TRUE |  |  | "}));
}

TEST_F(DdlTest, KeyPartitionsPropertiesAndLocationInTheMetadata) {
  std::string location = (dir_.path() / "elsewhere" / "events").string();
  Run("CREATE TABLE events (tenant STRING, id BIGINT, ts TIMESTAMP, category STRING, day_of "
      "DATE, PRIMARY KEY (tenant, id) NOT ENFORCED) COMMENT 'all events' PARTITIONED BY (tenant, "
      "bucket(16, id), truncate(4, category), days(ts), years(day_of)) WITH ('format-version' = "
      "'2', 'write.upsert.enabled' = 'true', 'location' = '" +
      location + "')");
  Json metadata = SqlMetadata(Backend::kSqlite, EmbeddedDb(), "floe", "default", "events");
  ASSERT_TRUE(metadata.is_object());
  EXPECT_EQ(metadata.Find("format-version")->as_int(), 2);
  std::string stored = metadata.Find("location")->as_string();
  if (stored.starts_with("file:")) stored = stored.substr(5);
  EXPECT_EQ(stored, location);
  const Json& schema = CurrentSchema(metadata);
  EXPECT_EQ(IdentifierIds(schema), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(Field(schema, "tenant")->Find("required")->as_bool());
  EXPECT_TRUE(Field(schema, "id")->Find("required")->as_bool());
  EXPECT_FALSE(Field(schema, "ts")->Find("required")->as_bool());
  EXPECT_EQ(DefaultSpec(metadata),
            (std::vector<std::string>{"identity(tenant) as tenant", "bucket[16](id) as id_bucket",
                                      "truncate[4](category) as category_trunc",
                                      "day(ts) as ts_day", "year(day_of) as day_of_year"}));
  EXPECT_EQ(Property(metadata, "write.upsert.enabled"), "true");
  EXPECT_EQ(Property(metadata, "comment"), "all events");
  EXPECT_EQ(Property(metadata, "location"), "<absent>");
  EXPECT_EQ(Property(metadata, "format-version"), "<absent>");
  EXPECT_TRUE(fs::exists(location + "/metadata"));
}

TEST_F(DdlTest, AlterTableChangesTheMetadata) {
  Run("CREATE TABLE t (id BIGINT, data STRING, ts TIMESTAMP) PARTITIONED BY (data) WITH "
      "('format-version' = '1')");
  Run("ALTER TABLE t SET ('write.format.default' = 'avro', 'format-version' = '2', 'k' = 'v')");
  Run("ALTER TABLE t RESET ('k')");
  Run("ALTER TABLE t ADD (score INT COMMENT 'points' AFTER id)");
  Run("ALTER TABLE t MODIFY (score BIGINT, id BIGINT FIRST)");
  Run("ALTER TABLE t RENAME data TO payload");
  Run("ALTER TABLE t ADD PARTITION FIELD bucket(8, id)");
  Run("ALTER TABLE t REPLACE PARTITION FIELD payload WITH truncate(2, payload) AS p2");
  Json metadata = SqlMetadata(Backend::kSqlite, EmbeddedDb(), "floe", "default", "t");
  ASSERT_TRUE(metadata.is_object());
  EXPECT_EQ(metadata.Find("format-version")->as_int(), 2);
  EXPECT_EQ(Property(metadata, "write.format.default"), "avro");
  EXPECT_EQ(Property(metadata, "k"), "<absent>");
  const Json& schema = CurrentSchema(metadata);
  std::vector<std::string> names;
  for (const Json& field : schema.Find("fields")->as_array()) {
    names.push_back(field.Find("name")->as_string());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"id", "score", "payload", "ts"}));
  EXPECT_EQ(TypeOf(schema, "score"), "long");
  EXPECT_EQ(Field(schema, "score")->Find("doc")->as_string(), "points");
  EXPECT_EQ(Field(schema, "score")->Find("id")->as_int(), 4);  // after the three first columns
  // A v2 table drops partition fields outright; the renamed column keeps its id (2).
  EXPECT_EQ(DefaultSpec(metadata), (std::vector<std::string>{"bucket[8](id) as id_bucket_8",
                                                             "truncate[2](payload) as p2"}));
  EXPECT_EQ(Field(schema, "payload")->Find("id")->as_int(), 2);
}

TEST_F(DdlTest, ShowCreateTableRecreatesTheSameTable) {
  Run("CREATE TABLE src (k INT, s STRING NOT NULL COMMENT 'the s', n ROW<a ARRAY<DECIMAL(9, 2)>, "
      "b MAP<STRING, BYTES>>, ts TIMESTAMP_LTZ, PRIMARY KEY (k) NOT ENFORCED) COMMENT 'c' "
      "PARTITIONED BY (bucket(3, k), hours(ts), s) WITH ('format-version' = '1', 'x.y' = 'z')");
  std::vector<std::string> ddl = Rows("SHOW CREATE TABLE src");
  ASSERT_EQ(ddl.size(), 1u);
  std::string again = ddl[0];
  again.replace(again.find("`src`"), 5, "`copy`");
  Run(again);
  Json a = SqlMetadata(Backend::kSqlite, EmbeddedDb(), "floe", "default", "src");
  Json b = SqlMetadata(Backend::kSqlite, EmbeddedDb(), "floe", "default", "copy");
  ASSERT_TRUE(a.is_object() && b.is_object());
  EXPECT_EQ(CurrentSchema(a).Find("fields")->Dump(), CurrentSchema(b).Find("fields")->Dump());
  EXPECT_EQ(IdentifierIds(CurrentSchema(a)), IdentifierIds(CurrentSchema(b)));
  EXPECT_EQ(DefaultSpec(a), DefaultSpec(b));
  EXPECT_EQ(a.Find("format-version")->as_int(), b.Find("format-version")->as_int());
  EXPECT_EQ(a.Find("properties")->Dump(), b.Find("properties")->Dump());
}

TEST_F(DdlTest, SqlCatalogRowsAsSqliteSeesThem) {
  std::string db = (dir_.path() / "c.db").string();
  Run("CREATE CATALOG sc WITH ('type'='iceberg', 'catalog-type'='sql', 'uri'='jdbc:sqlite:" + db +
      "', 'warehouse'='" + (dir_.path() / "sw").string() + "')");
  Run("USE CATALOG sc");
  Run("CREATE DATABASE sales COMMENT 'orders' WITH ('owner' = 'ana')");
  Run("ALTER DATABASE sales SET ('owner' = 'bo')");
  Run("CREATE TABLE sales.orders (id BIGINT)");
  Run("CREATE TABLE sales.gone (id BIGINT)");
  auto query = [&](const std::string& sql) {
    auto out = QueryWithClient(Backend::kSqlite, db, sql);
    EXPECT_EQ(out.exit_code, 0) << out.err;
    return Lines(out.out);
  };
  EXPECT_EQ(query("SELECT property_key, property_value FROM iceberg_namespace_properties WHERE "
                  "catalog_name = 'sc' AND namespace = 'sales' AND property_key IN ('comment', "
                  "'owner') ORDER BY property_key"),
            (std::vector<std::string>{"comment|orders", "owner|bo"}));
  Json gone = SqlMetadata(Backend::kSqlite, db, "sc", "sales", "gone");
  std::string gone_location = gone.Find("location")->as_string();
  if (gone_location.starts_with("file:")) gone_location = gone_location.substr(5);
  ASSERT_TRUE(fs::exists(gone_location + "/metadata"));
  Run("DROP TABLE sales.gone");
  // Dropped as Flink's catalog drops: the table's files go with it.
  EXPECT_FALSE(fs::exists(gone_location + "/metadata") &&
               !fs::is_empty(gone_location + "/metadata"));
  // With gc.enabled = false the files may be shared, so DROP keeps them (Iceberg's rule).
  Run("CREATE TABLE sales.kept (id BIGINT) WITH ('gc.enabled' = 'false')");
  Json kept = SqlMetadata(Backend::kSqlite, db, "sc", "sales", "kept");
  std::string kept_location = kept.Find("location")->as_string();
  if (kept_location.starts_with("file:")) kept_location = kept_location.substr(5);
  Run("DROP TABLE sales.kept");
  EXPECT_FALSE(fs::is_empty(kept_location + "/metadata"));
  EXPECT_EQ(query("SELECT count(*) FROM iceberg_tables WHERE catalog_name = 'sc' AND table_name "
                  "= 'kept'"),
            (std::vector<std::string>{"0"}));
  Run("ALTER TABLE sales.orders RENAME TO sales.orders2");
  EXPECT_EQ(query("SELECT table_namespace, table_name FROM iceberg_tables WHERE catalog_name = "
                  "'sc' ORDER BY table_name"),
            (std::vector<std::string>{"sales|orders2"}));
  Run("USE CATALOG floe");
  Run("DROP DATABASE sc.sales CASCADE");
  EXPECT_EQ(query("SELECT count(*) FROM iceberg_tables WHERE catalog_name = 'sc'"),
            (std::vector<std::string>{"0"}));
  EXPECT_EQ(query("SELECT count(*) FROM iceberg_namespace_properties WHERE catalog_name = 'sc' "
                  "AND namespace = 'sales'"),
            (std::vector<std::string>{"0"}));
}

TEST_F(DdlTest, PostgresCatalogMadeByCreateCatalog) {
  catalog::sqltest::PostgresServer& server = catalog::sqltest::TestPostgres();
  ASSERT_TRUE(server.error.empty()) << server.error;
  static std::atomic<int> counter = 0;
  std::string name = "ddl_pg_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  Run("CREATE CATALOG " + name + " WITH ('type'='iceberg', 'catalog-type'='sql', 'uri'='" +
      server.uri + "', 'warehouse'='" + (dir_.path() / "pw").string() + "')");
  Run("CREATE DATABASE " + name + ".db1 COMMENT 'on postgres'");
  Run("CREATE TABLE " + name +
      ".db1.t (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (bucket(4, "
      "id)) WITH ('format-version' = '2')");
  auto out = QueryWithClient(Backend::kPostgres, server.uri,
                             "SELECT table_namespace, table_name FROM iceberg_tables WHERE "
                             "catalog_name = '" +
                                 name + "'");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(Lines(out.out), (std::vector<std::string>{"db1|t"}));
  Json metadata = SqlMetadata(Backend::kPostgres, server.uri, name, "db1", "t");
  ASSERT_TRUE(metadata.is_object());
  EXPECT_EQ(IdentifierIds(CurrentSchema(metadata)), (std::vector<int64_t>{1}));
  EXPECT_EQ(DefaultSpec(metadata), (std::vector<std::string>{"bucket[4](id) as id_bucket"}));
  EXPECT_EQ(Rows("SHOW DATABASES"), (std::vector<std::string>{"default"}));
  Run("USE CATALOG " + name);
  EXPECT_EQ(Rows("SHOW DATABASES"), (std::vector<std::string>{"db1", "default"}));
  Run("USE CATALOG floe");
  Run("DROP DATABASE " + name + ".db1 CASCADE");
  out = QueryWithClient(Backend::kPostgres, server.uri,
                        "SELECT count(*) FROM iceberg_tables WHERE catalog_name = '" + name + "'");
  EXPECT_EQ(Lines(out.out), (std::vector<std::string>{"0"}));
}

TEST_F(DdlTest, IcebergConnectorTableCreatesItsTable) {
  std::string warehouse = (dir_.path() / "hadoop_prod").string();
  Run("USE CATALOG default_catalog");
  Run("CREATE TABLE flink_table (id BIGINT, data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ("
      "'connector'='iceberg', 'catalog-name'='hadoop_prod', 'catalog-type'='hadoop', "
      "'warehouse'='" +
      warehouse + "', 'format-version'='2', 'write.upsert.enabled'='true')");
  // The Flink connector's defaults: database default_database, table the connector table's name.
  Json metadata = HadoopMetadata(fs::path(warehouse) / "default_database" / "flink_table");
  ASSERT_TRUE(metadata.is_object());
  EXPECT_EQ(IdentifierIds(CurrentSchema(metadata)), (std::vector<int64_t>{1}));
  EXPECT_EQ(TypeOf(CurrentSchema(metadata), "data"), "string");
  EXPECT_EQ(Property(metadata, "write.upsert.enabled"), "true");
  EXPECT_EQ(Property(metadata, "warehouse"), "<absent>");
  EXPECT_EQ(Property(metadata, "connector"), "<absent>");

  Run("CREATE TABLE other (id INT) WITH ('connector'='iceberg', 'catalog-name'='hadoop_prod', "
      "'catalog-type'='hadoop', 'warehouse'='" +
      warehouse + "', 'catalog-database'='db2', 'catalog-table'='named')");
  EXPECT_EQ(TypeOf(CurrentSchema(HadoopMetadata(fs::path(warehouse) / "db2" / "named")), "id"),
            "int");
  const ConnectorTable& other = session_->connector_tables().at("default_database.other");
  FLOE_ASSERT_OK_AND_ASSIGN(stream::TableLoader loader,
                            IcebergConnectorLoader("default_database.other", other));
  FLOE_ASSERT_OK_AND_ASSIGN(auto table, loader.Load());
  EXPECT_EQ(table->ident().ToString(), "db2.named");

  EXPECT_NE(Error("CREATE TABLE bad (id INT) WITH ('connector'='iceberg')").find("catalog-name"),
            std::string::npos);
  EXPECT_NE(Error("CREATE TABLE bad (id INT) WITH ('connector'='iceberg', "
                  "'catalog-name'='h', 'catalog-type'='hive')")
                .find("not yet supported"),
            std::string::npos);
  EXPECT_FALSE(session_->connector_tables().contains("default_database.bad"));
}

}  // namespace
}  // namespace floe::sql
