SELECT EXPR$0 AS id, EXPR$1 AS name FROM (VALUES (1, 'a'), (2, 'b'));
SELECT 1 + 1;
CREATE TABLE default_catalog.default_database.gen (id BIGINT) WITH ('connector'='datagen', 'number-of-rows'='3', 'fields.id.kind'='sequence', 'fields.id.start'='10', 'fields.id.end'='12');
SELECT id * 2 FROM default_catalog.default_database.gen;
