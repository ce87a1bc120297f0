SET 'execution.runtime-mode' = 'batch';
CREATE TABLE default_catalog.default_database.ice (id BIGINT, data STRING) WITH ('connector'='iceberg', 'catalog-name'='hc', 'catalog-type'='hadoop', 'warehouse'='mem:/tmp/ice');
INSERT INTO default_catalog.default_database.ice VALUES (1, 'a'), (2, 'b');
CREATE CATALOG hc WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='mem:/tmp/ice');
SELECT * FROM hc.default_database.ice;
CREATE TABLE default_catalog.default_database.gen (id BIGINT) WITH ('connector'='datagen', 'number-of-rows'='3');
INSERT INTO default_catalog.default_database.gen VALUES (1);
INSERT INTO hc.default_database.ice SELECT id, 'gen' FROM default_catalog.default_database.gen;
SELECT COUNT(*) FROM hc.default_database.ice WHERE data = 'gen';
