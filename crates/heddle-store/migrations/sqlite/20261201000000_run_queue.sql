-- Runs waiting for a worker, and the worker that holds each (issue "Team scale"). Not
-- derived from run folders: an entry is what someone asked to run before any folder exists.
-- A worker holds an entry while its lease lasts and renews it by heartbeat; an entry whose
-- lease ran out (its worker died) is claimed again by another worker, which resumes the run
-- it names.
CREATE TABLE run_queue (
    id TEXT PRIMARY KEY NOT NULL,
    -- What to run, as the caller described it (JSON; the store does not read it).
    request TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'finished')),
    enqueued_ms INTEGER NOT NULL,
    -- The worker holding it, until when, and when it was last heard from.
    worker TEXT,
    lease_until_ms INTEGER,
    heartbeat_ms INTEGER,
    -- How many times a worker claimed it (more than once: a worker died holding it).
    claims INTEGER NOT NULL DEFAULT 0,
    -- The run the entry started (set by its worker once the run has an id).
    run_id TEXT,
    finished_ms INTEGER,
    -- success, fail, cancelled, ... as the worker reported it.
    outcome TEXT
) WITHOUT ROWID;

-- What a claim looks at: the oldest entry no live worker holds.
CREATE INDEX run_queue_waiting ON run_queue (state, enqueued_ms, id);
