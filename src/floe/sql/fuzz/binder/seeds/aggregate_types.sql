SET 'execution.runtime-mode' = 'batch';
SELECT SUM(x) AS s, AVG(x) AS a, SUM(CAST(x AS BIGINT)) AS b FROM (SELECT EXPR$0 AS x FROM (VALUES (2147483647), (1)));
