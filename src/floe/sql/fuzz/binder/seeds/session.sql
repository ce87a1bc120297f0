SET 'execution.runtime-mode' = 'batch';
SET 'execution.runtime-mode' = 'sometimes';
SET 'sql-client.execution.result-mode' = 'fancy';
SET 'pipeline.name' = 'my job';
RESET 'execution.runtime-mode';
SET;
RESET;
SET;
