-- A live run's checkpoints are appended as it makes them instead of all replaced after each
-- stage: the run row keeps where the last listing of its history ended, and the row marked
-- current is found without reading the others.

-- Where the last listing of the run's checkpoint history ended (JSON: the base commit, the
-- branch the run continued on, each timeline branch's tip, the entry count); NULL: list it
-- all again.
ALTER TABLE runs ADD COLUMN checkpoint_mark TEXT;

-- The run's current checkpoint (at most one row).
CREATE INDEX checkpoints_current ON checkpoints (run_key) WHERE current;
