"""Every statement of the Flink Iceberg connector's documentation (../shared/reference), run
through TableEnvironment.execute_sql in the documentation's order, with its results checked.
As in the C++ connector_doc_test: floe has no Hive catalog, so hive_catalog gives the "not yet
supported" error and a sql catalog of that name stands in for it; HDFS paths are local folders;
the custom catalog's Java class cannot load. Between the documentation's separate examples the
test sets up the state each one assumes (the table `sample` dropped, created or filled)."""

import os
import unittest

import floe
from support import TempDirTest


class ConnectorDocTest(TempDirTest):
    def run_sql(self, sql):
        return self.t_env.execute_sql(sql.replace("hdfs://nn:8020/warehouse/path",
                                                  os.path.join(self.dir, "hadoop")))

    def sample(self):
        return sorted(self.rows("SELECT * FROM `hive_catalog`.`default`.`sample`"))

    def test_every_statement(self):
        t_env = self.t_env
        with self.assertRaisesRegex(floe.UnsupportedError, "catalog-type hive is not yet supported"):
            self.run_sql("CREATE CATALOG hive_catalog WITH (\n  'type'='iceberg',\n"
                         "  'catalog-type'='hive',\n  'uri'='thrift://localhost:9083',\n"
                         "  'clients'='5',\n  'property-version'='1',\n"
                         "  'warehouse'='hdfs://nn:8020/warehouse/path'\n);")
        self.run_sql("CREATE CATALOG hive_catalog WITH ('type'='iceberg', 'catalog-type'='sql', "
                     f"'warehouse'='{os.path.join(self.dir, 'hive_standin')}')")
        self.run_sql("CREATE CATALOG hadoop_catalog WITH (\n  'type'='iceberg',\n"
                     "  'catalog-type'='hadoop',\n  'warehouse'='hdfs://nn:8020/warehouse/path',\n"
                     "  'property-version'='1'\n);")
        # The documentation's PyFlink example, as written.
        with self.assertRaisesRegex(floe.Error, "com.my.custom.CatalogImpl"):
            t_env.execute_sql("CREATE CATALOG my_catalog WITH ("
                              "'type'='iceberg', "
                              "'catalog-impl'='com.my.custom.CatalogImpl', "
                              "'my-additional-catalog-config'='my-value')")
        self.assertEqual(t_env.list_catalogs(),
                         ["default_catalog", "floe", "hadoop_catalog", "hive_catalog"])
        self.run_sql("USE CATALOG hive_catalog;")
        self.assertEqual(t_env.get_current_catalog(), "hive_catalog")
        self.run_sql("CREATE DATABASE iceberg_db;")
        self.run_sql("USE iceberg_db;")
        self.assertEqual(t_env.get_current_database(), "iceberg_db")
        self.assertIn("iceberg_db", t_env.list_databases())

        self.run_sql("CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
                     "    id BIGINT COMMENT 'unique id',\n    data STRING\n);")
        self.run_sql("DROP TABLE `hive_catalog`.`default`.`sample`")
        self.run_sql("CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
                     "    id BIGINT COMMENT 'unique id',\n    data STRING\n) PARTITIONED BY (data);")
        self.run_sql("CREATE TABLE  `hive_catalog`.`default`.`sample_like` LIKE "
                     "`hive_catalog`.`default`.`sample`;")
        t_env.use_database("default")
        self.assertEqual(sorted(t_env.list_tables()), ["sample", "sample_like"])
        self.run_sql("ALTER TABLE `hive_catalog`.`default`.`sample` SET "
                     "('write.format.default'='avro')")
        self.run_sql("ALTER TABLE `hive_catalog`.`default`.`sample` RENAME TO "
                     "`hive_catalog`.`default`.`new_sample`;")
        self.assertEqual(sorted(t_env.list_tables()), ["new_sample", "sample_like"])
        self.run_sql("CREATE TABLE `hive_catalog`.`default`.`sample` (id BIGINT, data STRING)")
        self.run_sql("DROP TABLE `hive_catalog`.`default`.`sample`;")
        self.assertEqual(sorted(t_env.list_tables()), ["new_sample", "sample_like"])

        # Reading and writing: the partitioned sample.
        self.run_sql("CREATE TABLE `hive_catalog`.`default`.`sample` (id BIGINT, data STRING) "
                     "PARTITIONED BY (data)")
        self.run_sql("SET execution.runtime-mode = streaming;")
        self.assertEqual(t_env.get_config().get("execution.runtime-mode"), "streaming")
        self.run_sql("SET execution.runtime-mode = batch;")
        self.assertEqual(t_env.get_config().get("execution.runtime-mode"), "batch")
        insert = self.run_sql("INSERT INTO `hive_catalog`.`default`.`sample` VALUES (1, 'a');")
        insert.wait()
        self.assertEqual(list(self.run_sql("SELECT * FROM sample       ;").collect()), [(1, "a")])
        self.run_sql("SET table.dynamic-table-options.enabled=true;")
        self.run_sql("SET execution.runtime-mode = streaming;")
        with self.run_sql("SELECT * FROM sample /*+ OPTIONS('streaming'='true', "
                          "'monitor-interval'='1s')*/ ;").collect() as rows:
            row = next(rows)
            self.assertEqual((tuple(row), row.get_row_kind()), ((1, "a"), floe.RowKind.INSERT))
        # The documentation's snapshot id stands for one of the table's own; the read starts
        # after it (docs/sql.md), so it sees the row of the next snapshot only.
        snapshot = self.rows("SELECT snapshot_id FROM `sample$snapshots`")[0][0]
        self.run_sql("INSERT INTO sample VALUES (5, 'e')").wait()
        with self.run_sql("SELECT * FROM sample /*+ OPTIONS('streaming'='true', "
                          "'monitor-interval'='1s', "
                          f"'start-snapshot-id'='{snapshot}')*/ ;").collect() as rows:
            self.assertEqual(tuple(next(rows)), (5, "e"))
        self.run_sql("SET table.exec.iceberg.use-flip27-source = true;")
        self.run_sql("SET execution.runtime-mode = batch;")
        self.run_sql("CREATE TABLE other_kafka_table (id BIGINT, data STRING)")
        self.run_sql("INSERT INTO other_kafka_table VALUES (2, 'b')").wait()
        self.run_sql("INSERT INTO `hive_catalog`.`default`.`sample` SELECT id, data from "
                     "other_kafka_table;").wait()
        self.assertEqual(self.sample(), [(1, "a"), (2, "b"), (5, "e")])
        self.run_sql("INSERT OVERWRITE `hive_catalog`.`default`.`sample` PARTITION(data='a') "
                     "SELECT 6;").wait()
        self.assertEqual(self.sample(), [(2, "b"), (5, "e"), (6, "a")])
        # Overwriting a partitioned table replaces the partitions the rows fall in.
        self.run_sql("INSERT OVERWRITE sample VALUES (1, 'a');").wait()
        self.assertEqual(self.sample(), [(1, "a"), (2, "b"), (5, "e")])

        # The upsert table.
        self.run_sql("DROP TABLE `hive_catalog`.`default`.`sample`")
        self.run_sql("CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
                     "  `id`  INT UNIQUE COMMENT 'unique id',\n  `data` STRING NOT NULL,\n"
                     " PRIMARY KEY(`id`) NOT ENFORCED\n"
                     ") with ('format-version'='2', 'write.upsert.enabled'='true');")
        self.run_sql("INSERT INTO sample VALUES (1, 'a'), (2, 'b')").wait()
        self.run_sql("INSERT INTO sample VALUES (1, 'c')").wait()
        self.assertEqual(self.sample(), [(1, "c"), (2, "b")])
        schema = self.t_env.execute_sql("SELECT * FROM sample").get_table_schema()
        self.assertEqual(schema.get_field_data_types(), ["INT NOT NULL", "STRING NOT NULL"])


if __name__ == "__main__":
    unittest.main()
