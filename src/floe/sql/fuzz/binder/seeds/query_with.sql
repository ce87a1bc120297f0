SET 'execution.runtime-mode' = 'batch';
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e')),
a AS (SELECT k FROM l WHERE k > 1), b AS (SELECT k * 10 AS k10 FROM a)
SELECT * FROM b;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e')),
a AS (SELECT DISTINCT k FROM l WHERE k IS NOT NULL)
SELECT x.k, y.k AS prev FROM a x JOIN a y ON x.k = y.k + 1;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e')),
a AS (SELECT k, count(*) AS c FROM l GROUP BY k)
SELECT k, c FROM a WHERE c > 1;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l WHERE k IN (SELECT k FROM r WHERE v <> 'a');
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e')),
a AS (SELECT k FROM r)
SELECT k FROM a UNION ALL SELECT k + 100 FROM a ORDER BY k NULLS LAST LIMIT 3;
WITH a AS (SELECT 1 AS x) SELECT * FROM (WITH a AS (SELECT 2 AS x) SELECT x FROM a);
WITH a AS (SELECT 1 AS x) SELECT * FROM (SELECT x + 1 AS y FROM a);
WITH a(x) AS (VALUES (1), (2)) SELECT t.x FROM a AS t WHERE t.x > 1;
CREATE TABLE t (id INT, data STRING);
INSERT INTO t VALUES (1, 'stored');
WITH t(id, data) AS (VALUES (99, 'with')) SELECT id, data FROM t;
SELECT id, data FROM t;
INSERT INTO t WITH n(id) AS (VALUES (2), (3)) SELECT id, 'from with' FROM n;
SELECT id, data FROM t;
WITH a(x, y) AS (SELECT 1) SELECT * FROM a;
WITH a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a;
WITH a AS (SELECT * FROM a) SELECT * FROM a;
WITH a AS (SELECT 1 AS x) SELECT * FROM a /*+ OPTIONS('k'='v') */;
SET 'execution.runtime-mode' = 'streaming';
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k + 1, v FROM l WHERE k > 2 UNION ALL SELECT k, v FROM r WHERE k = 5;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e')),
a AS (SELECT k, count(*) AS c FROM l GROUP BY k)
SELECT k, c FROM a WHERE c > 1;
