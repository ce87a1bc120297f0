SET 'execution.runtime-mode' = 'batch';
SELECT k, COUNT(*), SUM(v), MIN(v), MAX(v) FROM (SELECT EXPR$0 AS k, EXPR$1 AS v FROM (VALUES ('a', 1), ('b', 2), ('a', 3), ('c', 4), ('a', 5))) GROUP BY k;
SELECT COUNT(*) AS n, SUM(v) AS total FROM (SELECT EXPR$0 AS v FROM (VALUES (1), (2), (3)));
SELECT k, SUM(v) * 2 FROM (SELECT EXPR$0 AS k, EXPR$1 AS v FROM (VALUES ('a', 1), ('b', 2), ('a', 3))) GROUP BY k HAVING SUM(v) > 2;
SELECT k || '!', COUNT(*) FROM (SELECT EXPR$0 AS k FROM (VALUES ('a'), ('b'), ('a'))) GROUP BY k || '!';
SELECT DISTINCT k FROM (SELECT EXPR$0 AS k FROM (VALUES ('a'), ('b'), ('a')));
SELECT COUNT(DISTINCT k) FROM (SELECT EXPR$0 AS k FROM (VALUES ('a'), ('b'), ('a')));
SELECT k, v FROM (SELECT EXPR$0 AS k, EXPR$1 AS v FROM (VALUES ('a', 1))) GROUP BY k;
