-- Runs waiting for a worker, and the worker that holds each: the same table as SQLite's
-- migration 20261201000000_run_queue, which says what each column holds.
CREATE TABLE run_queue (
    id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    request TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'finished')),
    enqueued_ms BIGINT NOT NULL,
    worker TEXT,
    lease_until_ms BIGINT,
    heartbeat_ms BIGINT,
    claims BIGINT NOT NULL DEFAULT 0,
    run_id TEXT,
    finished_ms BIGINT,
    outcome TEXT
);

CREATE INDEX run_queue_waiting ON run_queue (state, enqueued_ms, id);
