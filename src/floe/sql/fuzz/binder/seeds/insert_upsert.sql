SET 'execution.runtime-mode' = 'batch';
CREATE TABLE `sample` (
  `id`  INT UNIQUE COMMENT 'unique id',
  `data` STRING NOT NULL,
 PRIMARY KEY(`id`) NOT ENFORCED
) with ('format-version'='2', 'write.upsert.enabled'='true');
INSERT INTO sample VALUES (1, 'a'), (2, 'b');
INSERT INTO sample VALUES (1, 'c'), (3, 'd');
SELECT * FROM sample;
CREATE TABLE keyed (id INT, data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '2');
INSERT INTO keyed VALUES (1, 'a'), (2, 'b');
INSERT INTO keyed /*+ OPTIONS('upsert-enabled'='true') */ VALUES (2, 'z');
SELECT * FROM keyed;
CREATE TABLE by_region (id INT, region STRING, v STRING, PRIMARY KEY (id, region) NOT ENFORCED) PARTITIONED BY (region) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true');
INSERT INTO by_region VALUES (1, 'eu', 'a'), (1, 'us', 'b');
INSERT INTO by_region VALUES (1, 'eu', 'c');
SELECT * FROM by_region;
CREATE TABLE bad_partition (id INT, region STRING, PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (region) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true');
INSERT INTO bad_partition VALUES (1, 'eu');
CREATE TABLE bad_partition2 (id INT, region STRING, PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (region) WITH ('format-version' = '2');
INSERT INTO bad_partition2 /*+ OPTIONS('upsert-enabled'='true') */ VALUES (1, 'eu');
CREATE TABLE no_key (id INT, data STRING) WITH ('format-version' = '2');
INSERT INTO no_key /*+ OPTIONS('upsert-enabled'='true') */ VALUES (1, 'a');
CREATE TABLE v1 (id INT, data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '1');
INSERT INTO v1 /*+ OPTIONS('upsert-enabled'='true') */ VALUES (1, 'a');
INSERT OVERWRITE sample VALUES (1, 'x');
SELECT * FROM sample;
