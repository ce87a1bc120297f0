CREATE CATALOG c WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='/tmp/w');
CREATE DATABASE IF NOT EXISTS c.db COMMENT 'x' WITH ('k'='v');
CREATE TABLE c.db.t (id BIGINT NOT NULL COMMENT 'id', ts TIMESTAMP(6), m MAP<STRING, ARRAY<ROW<a INT, b DECIMAL(9, 2)>>>,
  PRIMARY KEY (id) NOT ENFORCED) COMMENT 't' PARTITIONED BY (bucket(16, id), days(ts)) WITH ('format-version'='2');
ALTER TABLE t ADD (x INT FIRST, y STRING AFTER x);
ALTER TABLE t REPLACE PARTITION FIELD days(ts) WITH hours(ts) AS h;
DROP DATABASE db CASCADE;
