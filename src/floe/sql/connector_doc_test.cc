// Every SQL statement of the Flink Iceberg connector's documentation, parsed and printed back in
// canonical form. The canonical forms were written by hand from the statements: names backquoted,
// keywords upper case, options as 'k' = 'v', the legacy SET k = v in its quoted form.

#include <gtest/gtest.h>

#include "floe/sql/parser.h"
#include "floe/sql/printer.h"

namespace floe::sql {
namespace {

struct Case {
  std::string_view sql;
  std::string_view canonical;
};

constexpr Case kConnectorDocStatements[] = {
    {"CREATE CATALOG hive_catalog WITH (\n"
     "  'type'='iceberg',\n"
     "  'catalog-type'='hive',\n"
     "  'uri'='thrift://localhost:9083',\n"
     "  'clients'='5',\n"
     "  'property-version'='1',\n"
     "  'warehouse'='hdfs://nn:8020/warehouse/path'\n"
     ");",
     "CREATE CATALOG `hive_catalog` WITH ('type' = 'iceberg', 'catalog-type' = 'hive', 'uri' = "
     "'thrift://localhost:9083', 'clients' = '5', 'property-version' = '1', 'warehouse' = "
     "'hdfs://nn:8020/warehouse/path')"},
    {"CREATE CATALOG hadoop_catalog WITH (\n"
     "  'type'='iceberg',\n"
     "  'catalog-type'='hadoop',\n"
     "  'warehouse'='hdfs://nn:8020/warehouse/path',\n"
     "  'property-version'='1'\n"
     ");",
     "CREATE CATALOG `hadoop_catalog` WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
     "'warehouse' = 'hdfs://nn:8020/warehouse/path', 'property-version' = '1')"},
    {"CREATE CATALOG my_catalog WITH (\n"
     "  'type'='iceberg',\n"
     "  'catalog-impl'='com.my.custom.CatalogImpl',\n"
     "  'my-additional-catalog-config'='my-value'\n"
     ");",
     "CREATE CATALOG `my_catalog` WITH ('type' = 'iceberg', 'catalog-impl' = "
     "'com.my.custom.CatalogImpl', 'my-additional-catalog-config' = 'my-value')"},
    {"CREATE CATALOG my_catalog WITH ('type'='iceberg', "
     "'catalog-impl'='com.my.custom.CatalogImpl', 'my-additional-catalog-config'='my-value')",
     "CREATE CATALOG `my_catalog` WITH ('type' = 'iceberg', 'catalog-impl' = "
     "'com.my.custom.CatalogImpl', 'my-additional-catalog-config' = 'my-value')"},
    {"USE CATALOG hive_catalog;", "USE CATALOG `hive_catalog`"},
    {"CREATE DATABASE iceberg_db;", "CREATE DATABASE `iceberg_db`"},
    {"USE iceberg_db;", "USE `iceberg_db`"},
    {"CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
     "    id BIGINT COMMENT 'unique id',\n"
     "    data STRING\n"
     ");",
     "CREATE TABLE `hive_catalog`.`default`.`sample` (`id` BIGINT COMMENT 'unique id', `data` "
     "STRING)"},
    {"CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
     "    id BIGINT COMMENT 'unique id',\n"
     "    data STRING\n"
     ") PARTITIONED BY (data);",
     "CREATE TABLE `hive_catalog`.`default`.`sample` (`id` BIGINT COMMENT 'unique id', `data` "
     "STRING) PARTITIONED BY (`data`)"},
    {"CREATE TABLE  `hive_catalog`.`default`.`sample_like` LIKE `hive_catalog`.`default`.`sample`;",
     "CREATE TABLE `hive_catalog`.`default`.`sample_like` LIKE "
     "`hive_catalog`.`default`.`sample`"},
    {"ALTER TABLE `hive_catalog`.`default`.`sample` SET ('write.format.default'='avro')",
     "ALTER TABLE `hive_catalog`.`default`.`sample` SET ('write.format.default' = 'avro')"},
    {"ALTER TABLE `hive_catalog`.`default`.`sample` RENAME TO "
     "`hive_catalog`.`default`.`new_sample`;",
     "ALTER TABLE `hive_catalog`.`default`.`sample` RENAME TO "
     "`hive_catalog`.`default`.`new_sample`"},
    {"DROP TABLE `hive_catalog`.`default`.`sample`;",
     "DROP TABLE `hive_catalog`.`default`.`sample`"},
    {"SET execution.runtime-mode = streaming;", "SET 'execution.runtime-mode' = 'streaming'"},
    {"SET execution.runtime-mode = batch;", "SET 'execution.runtime-mode' = 'batch'"},
    {"SELECT * FROM sample       ;", "SELECT * FROM `sample`"},
    {"SET table.dynamic-table-options.enabled=true;",
     "SET 'table.dynamic-table-options.enabled' = 'true'"},
    {"SELECT * FROM sample /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s')*/ ;",
     "SELECT * FROM `sample` /*+ OPTIONS('streaming' = 'true', 'monitor-interval' = '1s') */"},
    {"SELECT * FROM sample /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s', "
     "'start-snapshot-id'='3821550127947089987')*/ ;",
     "SELECT * FROM `sample` /*+ OPTIONS('streaming' = 'true', 'monitor-interval' = '1s', "
     "'start-snapshot-id' = '3821550127947089987') */"},
    {"SET table.exec.iceberg.use-flip27-source = true;",
     "SET 'table.exec.iceberg.use-flip27-source' = 'true'"},
    {"INSERT INTO `hive_catalog`.`default`.`sample` VALUES (1, 'a');",
     "INSERT INTO `hive_catalog`.`default`.`sample` VALUES (1, 'a')"},
    {"INSERT INTO `hive_catalog`.`default`.`sample` SELECT id, data from other_kafka_table;",
     "INSERT INTO `hive_catalog`.`default`.`sample` SELECT `id`, `data` FROM "
     "`other_kafka_table`"},
    {"INSERT OVERWRITE sample VALUES (1, 'a');", "INSERT OVERWRITE `sample` VALUES (1, 'a')"},
    {"INSERT OVERWRITE `hive_catalog`.`default`.`sample` PARTITION(data='a') SELECT 6;",
     "INSERT OVERWRITE `hive_catalog`.`default`.`sample` PARTITION (`data` = 'a') SELECT 6"},
    {"CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
     "  `id`  INT UNIQUE COMMENT 'unique id',\n"
     "  `data` STRING NOT NULL,\n"
     " PRIMARY KEY(`id`) NOT ENFORCED\n"
     ") with ('format-version'='2', 'write.upsert.enabled'='true');",
     "CREATE TABLE `hive_catalog`.`default`.`sample` (`id` INT UNIQUE COMMENT 'unique id', `data` "
     "STRING NOT NULL, PRIMARY KEY (`id`) NOT ENFORCED) WITH ('format-version' = '2', "
     "'write.upsert.enabled' = 'true')"},
};

TEST(ConnectorDocTest, EveryStatementParsesAndPrintsCanonically) {
  for (const Case& c : kConnectorDocStatements) {
    auto statement = ParseStatement(c.sql);
    ASSERT_TRUE(statement.has_value()) << c.sql << "\n" << statement.error().ToString();
    std::string printed = PrintStatement(*statement);
    EXPECT_EQ(printed, c.canonical) << c.sql;
    auto again = ParseStatement(printed);
    ASSERT_TRUE(again.has_value()) << printed << "\n" << again.error().ToString();
    EXPECT_EQ(PrintStatement(*again), printed);
  }
}

// The documentation's init.sql for `sql-client.sh -i`, as one script.
TEST(ConnectorDocTest, InitScript) {
  constexpr std::string_view kScript =
      "-- define available catalogs\n"
      "CREATE CATALOG hive_catalog WITH (\n"
      "  'type'='iceberg',\n"
      "  'catalog-type'='hive',\n"
      "  'uri'='thrift://localhost:9083',\n"
      "  'warehouse'='hdfs://nn:8020/warehouse/path'\n"
      ");\n"
      "\n"
      "USE CATALOG hive_catalog;\n";
  auto statements = ParseScript(kScript);
  ASSERT_TRUE(statements.has_value()) << statements.error().ToString();
  ASSERT_EQ(statements->size(), 2u);
  EXPECT_EQ((*statements)[0].position.line, 2);
  EXPECT_EQ((*statements)[1].position.line, 9);
  EXPECT_EQ(PrintStatement((*statements)[1]), "USE CATALOG `hive_catalog`");
  const auto& create = std::get<CreateCatalog>((*statements)[0].body);
  EXPECT_EQ(create.options.size(), 4u);
  EXPECT_EQ(create.options[1].first, "catalog-type");
  EXPECT_EQ(create.options[1].second, "hive");
}

// The upsert hint as the documentation writes it, completed with a query.
TEST(ConnectorDocTest, UpsertHint) {
  auto statement = ParseStatement(
      "INSERT INTO tableName /*+ OPTIONS('upsert-enabled'='true') */\nSELECT * FROM src");
  ASSERT_TRUE(statement.has_value()) << statement.error().ToString();
  const auto& insert = std::get<Insert>(statement->body);
  ASSERT_EQ(insert.hints.size(), 1u);
  EXPECT_EQ(insert.hints[0].first, "upsert-enabled");
  EXPECT_EQ(
      PrintStatement(*statement),
      "INSERT INTO `tableName` /*+ OPTIONS('upsert-enabled' = 'true') */ SELECT * FROM `src`");
}

}  // namespace
}  // namespace floe::sql
