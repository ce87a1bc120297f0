SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
CREATE TABLE default_catalog.default_database.big (id BIGINT) WITH ('connector'='datagen', 'number-of-rows'='1000000000000', 'fields.id.kind'='sequence', 'fields.id.start'='1', 'fields.id.end'='1000000000000');
SELECT id FROM default_catalog.default_database.big LIMIT 3;
SELECT id * 10 FROM default_catalog.default_database.big WHERE id % 2 = 0 LIMIT 2 OFFSET 1;
SELECT id FROM default_catalog.default_database.big LIMIT 0;
CREATE TABLE t (id BIGINT, data STRING);
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
SELECT COUNT(*) FROM (SELECT * FROM t LIMIT 2);
