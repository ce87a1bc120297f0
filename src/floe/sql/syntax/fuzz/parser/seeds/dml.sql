SET execution.runtime-mode = batch;
INSERT OVERWRITE t PARTITION (d = DATE '2024-01-01') SELECT a, CAST(b AS VARCHAR(3)) FROM s /*+ OPTIONS('streaming'='true') */ WHERE a BETWEEN 1 AND 2;
SELECT a, count(*), CASE WHEN a IS NULL THEN -1 ELSE a END FROM t$snapshots x JOIN u ON x.a = u.a
  WHERE a IN (1, 2) AND b LIKE 'x%' OR NOT c GROUP BY a HAVING count(*) > 1 ORDER BY a DESC LIMIT 5;
SELECT 1 UNION ALL VALUES (2), (INTERVAL '1' DAY);
CALL system.rewrite_data_files(table => 'db.t');
