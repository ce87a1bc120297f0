CREATE CATALOG my_catalog WITH ('type'='iceberg', 'catalog-impl'='com.my.custom.CatalogImpl', 'my-additional-catalog-config'='my-value');
CREATE CATALOG templ_catalog WITH (
  'type'='iceberg',
  'catalog-type'='hadoop', 'warehouse'='mem:/tmp/templ'
);
CREATE CATALOG hive_catalog WITH (
  'type'='iceberg',
  'catalog-type'='hive',
  'uri'='thrift://localhost:9083',
  'clients'='5',
  'property-version'='1',
  'warehouse'='hdfs://nn:8020/warehouse/path'
);
CREATE CATALOG hive_catalog WITH ('type'='iceberg', 'catalog-type'='sql', 'uri'='jdbc:sqlite:mem:/tmp/hive.db', 'warehouse'='mem:/lake/hive');
CREATE CATALOG hadoop_catalog WITH (
  'type'='iceberg',
  'catalog-type'='hadoop',
  'warehouse'='mem:/tmp/warehouse/path',
  'property-version'='1'
);
USE CATALOG hive_catalog;
SHOW CURRENT CATALOG;
CREATE CATALOG my_catalog WITH (
  'type'='iceberg',
  'catalog-impl'='com.my.custom.CatalogImpl',
  'my-additional-catalog-config'='my-value'
);
USE CATALOG default_catalog;
DROP CATALOG hive_catalog;
CREATE CATALOG hive_catalog WITH (
  'type'='iceberg',
  'catalog-type'='hive',
  'uri'='thrift://localhost:9083',
  'warehouse'='hdfs://nn:8020/warehouse/path'
);
CREATE CATALOG hive_catalog WITH ('type'='iceberg', 'catalog-type'='sql', 'uri'='jdbc:sqlite:mem:/tmp/hive.db', 'warehouse'='mem:/lake/hive');
USE CATALOG hive_catalog;
CREATE DATABASE iceberg_db;
USE iceberg_db;
SHOW CURRENT DATABASE;
CREATE TABLE `hive_catalog`.`default`.`sample` (
    id BIGINT COMMENT 'unique id',
    data STRING
);
SHOW CREATE TABLE `hive_catalog`.`default`.`sample`;
DROP TABLE `hive_catalog`.`default`.`sample`;
CREATE TABLE `hive_catalog`.`default`.`sample` (
    id BIGINT COMMENT 'unique id',
    data STRING
) PARTITIONED BY (data);
SHOW CREATE TABLE `hive_catalog`.`default`.`sample`;
DROP TABLE `hive_catalog`.`default`.`sample`;
CREATE TABLE `hive_catalog`.`default`.`sample` (
    id BIGINT COMMENT 'unique id',
    data STRING
);
CREATE TABLE  `hive_catalog`.`default`.`sample_like` LIKE `hive_catalog`.`default`.`sample`;
SELECT * FROM `hive_catalog`.`default`.`sample_like`;
ALTER TABLE `hive_catalog`.`default`.`sample` SET ('write.format.default'='avro');
ALTER TABLE `hive_catalog`.`default`.`sample` RENAME TO `hive_catalog`.`default`.`new_sample`;
SELECT * FROM `hive_catalog`.`default`.`sample`;
SHOW CREATE TABLE `hive_catalog`.`default`.`new_sample`;
CREATE TABLE `hive_catalog`.`default`.`sample` (id BIGINT, data STRING) PARTITIONED BY (data);
DROP TABLE `hive_catalog`.`default`.`sample`;
SELECT * FROM `hive_catalog`.`default`.`sample`;
USE `default`;
CREATE TABLE `hive_catalog`.`default`.`sample` (id BIGINT COMMENT 'unique id', data STRING) PARTITIONED BY (data);
SET 'execution.runtime-mode' = 'batch';
INSERT INTO sample VALUES (1, 'a'), (2, 'b');
SELECT snapshot_id FROM `sample$snapshots`;
INSERT INTO sample VALUES (3, 'c');
SET execution.runtime-mode = streaming;
SET execution.runtime-mode = batch;
SET execution.runtime-mode = batch;
SELECT * FROM sample       ;
SET execution.runtime-mode = streaming;
SET table.dynamic-table-options.enabled=true;
SELECT * FROM sample /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s')*/ ;
SELECT * FROM sample /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s', 'start-snapshot-id'='3821550127947089987')*/ ;
SELECT * FROM sample /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s', 'start-snapshot-id'='1')*/ ;
SET table.exec.iceberg.use-flip27-source = true;
SELECT * FROM sample /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s')*/ ;
SELECT * FROM sample /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s', 'start-snapshot-id'='1')*/ ;
RESET 'table.exec.iceberg.use-flip27-source';
CREATE TABLE other_kafka_table (id BIGINT, data STRING);
SET 'table.dml-sync' = 'true';
INSERT INTO other_kafka_table VALUES (4, 'a'), (5, 'd');
INSERT INTO `hive_catalog`.`default`.`sample` VALUES (1, 'a');
INSERT INTO `hive_catalog`.`default`.`sample` SELECT id, data from other_kafka_table;
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM sample;
SET 'execution.runtime-mode' = 'streaming';
INSERT OVERWRITE sample VALUES (1, 'a');
SET 'execution.runtime-mode' = 'batch';
INSERT OVERWRITE sample VALUES (1, 'a');
SELECT * FROM sample;
INSERT OVERWRITE `hive_catalog`.`default`.`sample` PARTITION(data='a') SELECT 6;
SELECT * FROM sample;
SELECT operation, COUNT(*) FROM `sample$snapshots` GROUP BY operation ORDER BY operation;
DROP TABLE `hive_catalog`.`default`.`sample`;
CREATE TABLE `hive_catalog`.`default`.`sample` (
  `id`  INT UNIQUE COMMENT 'unique id',
  `data` STRING NOT NULL,
 PRIMARY KEY(`id`) NOT ENFORCED
) with ('format-version'='2', 'write.upsert.enabled'='true');
INSERT INTO `hive_catalog`.`default`.`sample` VALUES (1, 'a'), (2, 'b');
INSERT INTO `hive_catalog`.`default`.`sample` VALUES (1, 'c');
SELECT * FROM `hive_catalog`.`default`.`sample`;
INSERT OVERWRITE `hive_catalog`.`default`.`sample` VALUES (1, 'd');
CREATE TABLE tableName (id INT, data STRING NOT NULL, PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version'='2');
INSERT INTO tableName VALUES (1, 'a'), (2, 'b');
INSERT INTO tableName /*+ OPTIONS('upsert-enabled'='true') */
VALUES (1, 'x');
SELECT * FROM tableName;
CREATE TABLE no_key (id INT, data STRING) WITH ('format-version'='2');
INSERT INTO no_key /*+ OPTIONS('upsert-enabled'='true') */ VALUES (1, 'x');
INSERT INTO tableName /*+ OPTIONS('upsert-enabled'='true') */
SELECT id + 1, data FROM tableName WHERE id = 2;
SELECT * FROM tableName;
INSERT INTO other_kafka_table /*+ OPTIONS('write-format'='avro', 'target-file-size-bytes'='1048576', 'compression-codec'='snappy', 'distribution-mode'='none') */ VALUES (7, 'e');
INSERT INTO other_kafka_table /*+ OPTIONS('write-format'='parquet', 'compression-codec'='zstd', 'compression-level'='3') */ VALUES (8, 'f');
INSERT INTO other_kafka_table /*+ OPTIONS('overwrite-enabled'='true') */ VALUES (9, 'g');
SELECT * FROM other_kafka_table;
INSERT INTO other_kafka_table /*+ OPTIONS('write-format'='orc') */ VALUES (10, 'h');
