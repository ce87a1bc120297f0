SET 'execution.runtime-mode' = 'batch';
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l INTERSECT SELECT k, v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l INTERSECT ALL SELECT k, v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l EXCEPT SELECT k, v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l EXCEPT DISTINCT SELECT k, v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l EXCEPT ALL SELECT k, v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM r EXCEPT ALL SELECT k, v FROM l;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT v FROM l WHERE k > 1 INTERSECT DISTINCT SELECT v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k FROM l UNION SELECT k FROM r INTERSECT SELECT 5;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
(SELECT k FROM l UNION SELECT k FROM r) INTERSECT SELECT 5;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l EXCEPT SELECT k, v FROM r EXCEPT SELECT 4, 'd';
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k FROM l INTERSECT ALL SELECT k FROM r INTERSECT ALL SELECT k FROM l;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k FROM l EXCEPT SELECT 2.0;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l EXCEPT ALL SELECT k, v FROM r ORDER BY k NULLS FIRST LIMIT 2;
SELECT 1, 2 INTERSECT SELECT 1;
SELECT 1 EXCEPT SELECT 'a';
SET 'execution.runtime-mode' = 'streaming';
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l INTERSECT ALL SELECT k, v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l EXCEPT SELECT k, v FROM r;
WITH l(k, v) AS (VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (NULL, 'n'), (3, NULL), (4, 'd')), r(k, v) AS (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b'), (NULL, 'n'), (3, NULL), (5, 'e'))
SELECT k, v FROM l EXCEPT ALL SELECT k, v FROM r;
