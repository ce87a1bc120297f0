CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='mem:/lake/wh');
CREATE DATABASE lake.db;
CREATE TABLE lake.db.latest (k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('format-version'='2', 'write.upsert.enabled'='true');
CREATE TABLE default_catalog.default_database.ev (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH ('connector'='filesystem', 'path'='src/floe/sql/scripts/windows', 'format'='csv');
SET 'execution.runtime-mode' = 'streaming';
SET 'table.dml-sync' = 'true';
INSERT INTO lake.db.latest SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM default_catalog.default_database.ev) WHERE rn = 1;
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM lake.db.latest;
