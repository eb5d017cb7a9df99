-- The run folder a queue entry's worker executes its run in: see SQLite's migration
-- 20261203000000_queue_run_folder.
ALTER TABLE run_queue ADD COLUMN folder TEXT;
