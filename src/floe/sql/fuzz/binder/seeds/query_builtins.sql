SET 'execution.runtime-mode' = 'batch';
SELECT MD5('abc') AS m, SHA2('abc', 256) AS s, TO_BASE64('floe') AS b, FROM_BASE64('ZmxvZQ==') AS f;
SELECT id, GREATEST(id, 2), LEAST(id, 2), LEFT(name, 2), RIGHT(name, 1), REPEAT(name, 2), LOCATE('l', name) FROM (SELECT EXPR$0 AS id, EXPR$1 AS name FROM (VALUES (1, 'hello'), (3, 'ola')));
SELECT k, k IS DISTINCT FROM 'a', k IS NOT DISTINCT FROM NULL, k = 'a' IS TRUE, k = 'a' IS UNKNOWN FROM (SELECT EXPR$0 AS k FROM (VALUES ('a'), ('b'), (CAST(NULL AS STRING))));
SELECT JSON_VALUE('{"a": {"b": 7}}', '$.a.b'), JSON_QUERY('{"a": [1, 2]}', '$.a'), JSON_EXISTS('{"a": 1}', '$.b'), FROM_UNIXTIME(86400), UNIX_TIMESTAMP('1970-01-02 00:00:00');
SET 'execution.runtime-mode' = 'streaming';
SELECT id, GREATEST(id, 2), LEFT(name, 2), MD5(name) FROM (SELECT EXPR$0 AS id, EXPR$1 AS name FROM (VALUES (1, 'abc'), (3, 'ola')));
