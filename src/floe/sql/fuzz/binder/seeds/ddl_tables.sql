CREATE TABLE `floe`.`default`.`sample` (
  `id`  INT UNIQUE COMMENT 'unique id',
  `data` STRING NOT NULL,
 PRIMARY KEY(`id`) NOT ENFORCED
) with ('format-version'='2', 'write.upsert.enabled'='true');
DESCRIBE sample;
DESCRIBE EXTENDED sample;
SHOW CREATE TABLE sample;
CREATE TABLE sample (id INT);
CREATE TABLE IF NOT EXISTS sample (id INT);
CREATE TABLE events (
  tenant STRING,
  id BIGINT PRIMARY KEY NOT ENFORCED,
  ts TIMESTAMP(6),
  category STRING,
  amount DECIMAL(12, 2)
) COMMENT 'all events'
PARTITIONED BY (tenant, bucket(16, id), truncate(4, category), days(ts))
WITH ('format-version' = '2', 'write.format.default' = 'parquet', 'location' = 'mem:/tmp/events_here');
DESCRIBE events;
SHOW CREATE TABLE events;
CREATE TABLE times (y DATE, m DATE, h TIMESTAMP, k1 INT, k2 STRING, PRIMARY KEY (k1, k2) NOT ENFORCED) PARTITIONED BY (years(y), months(m), hours(h));
DESCRIBE times;
SHOW CREATE TABLE times;
CREATE TABLE `floe`.`default`.`sample_like` LIKE `floe`.`default`.`events`;
SHOW CREATE TABLE sample_like;
CREATE TABLE events_v1 (extra ARRAY<INT>) WITH ('format-version' = '1', 'k' = 'v') LIKE events (EXCLUDING PARTITIONS EXCLUDING CONSTRAINTS);
SHOW CREATE TABLE events_v1;
CREATE TABLE bare LIKE events (EXCLUDING ALL);
SHOW CREATE TABLE bare;
CREATE TABLE clash (x INT) PARTITIONED BY (x) LIKE events;
CREATE TABLE clash (x INT PRIMARY KEY NOT ENFORCED) LIKE events;
CREATE TABLE clash (id INT) LIKE events (EXCLUDING ALL);
CREATE TABLE clash LIKE nope;
SHOW TABLES;
CREATE DATABASE other;
CREATE TABLE other.t1 (id INT);
SHOW TABLES FROM other;
SHOW TABLES IN floe.other;
SHOW TABLES FROM nope;
DROP TABLE other.t1;
DROP TABLE other.t1;
DROP TABLE IF EXISTS other.t1;
SHOW TABLES FROM other;
CREATE TABLE bad (a TIMESTAMP WITH TIME ZONE);
CREATE TABLE bad (a INT, a STRING);
CREATE TABLE bad (a INT, PRIMARY KEY (b) NOT ENFORCED);
CREATE TABLE bad (a INT PRIMARY KEY NOT ENFORCED, b INT, PRIMARY KEY (b) NOT ENFORCED);
CREATE TABLE bad (a DOUBLE, PRIMARY KEY (a) NOT ENFORCED);
CREATE TABLE bad (a INT) PARTITIONED BY (nope);
CREATE TABLE bad (a DOUBLE) PARTITIONED BY (bucket(4, a));
CREATE TABLE bad (a INT) PARTITIONED BY (days(a));
CREATE TABLE bad (a INT) PARTITIONED BY (hash(a));
CREATE TABLE bad (a INT) WITH ('format-version' = '9');
CREATE TABLE bad (a INT) WITH ('k' = '1', 'k' = '2');
CREATE TABLE bad (a INT) WITH ('connector' = 'datagen');
CREATE TABLE `a/b` (a INT);
CREATE TABLE `..` (a INT);
CREATE TABLE a.b.c.d (a INT);
CREATE TABLE nocat.db.t (a INT);
CREATE TABLE nodb.t (a INT);
DESCRIBE nope;
SHOW CREATE TABLE nope;
DROP TABLE sample$snapshots;
SHOW TABLES;
USE CATALOG default_catalog;
CREATE TABLE plain (id INT);
CREATE TABLE gen (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) COMMENT 'generated' WITH ('connector' = 'datagen', 'rows-per-second' = '5');
CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE IF NOT EXISTS gen (id BIGINT) WITH ('connector' = 'datagen');
DESCRIBE gen;
SHOW CREATE TABLE gen;
CREATE TABLE gen2 WITH ('rows-per-second' = '1') LIKE gen;
SHOW CREATE TABLE gen2;
CREATE TABLE files (a INT, b STRING) WITH ('connector' = 'filesystem', 'path' = 'mem:/tmp/files', 'format' = 'csv');
ALTER TABLE files SET ('format' = 'json');
ALTER TABLE files RENAME TO files2;
SHOW TABLES;
ALTER TABLE files2 ADD (c INT);
CREATE TABLE parts (a INT) PARTITIONED BY (a) WITH ('connector' = 'filesystem');
CREATE TABLE floe.`default`.from_gen LIKE gen;
DROP TABLE files2;
DROP TABLE IF EXISTS files2;
DROP TABLE files2;
CREATE TABLE floe.`default`.leaky (id INT) WITH ('s3.secret-access-key' = 'hunter2');
DROP TABLE floe.`default`.leaky;
