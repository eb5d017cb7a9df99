-- The run folder a queue entry's worker executes its run in (set with the run's id). A run
-- a worker took over lives in the new worker's folder; the folder the dead worker left
-- names the same run, and an ingest of it must not replace the live one in the index.
ALTER TABLE run_queue ADD COLUMN folder TEXT;
