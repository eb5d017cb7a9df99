-- Reaching a run that a worker on another machine executes (issue "Team scale"). Not
-- derived from run folders: the folder is on the worker's machine.

-- The human gates of such a run waiting for an answer, as its worker publishes them (the
-- engine's question, as JSON), so any client can list and answer them.
CREATE TABLE run_gates (
    run_id TEXT NOT NULL,
    question_id TEXT NOT NULL,
    worker TEXT NOT NULL,
    question TEXT NOT NULL,
    PRIMARY KEY (run_id, question_id)
) WITHOUT ROWID;

-- Requests for such a run (a gate's answer, a cancel; JSON), taken by the worker that
-- holds the run, oldest first.
CREATE TABLE run_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    request TEXT NOT NULL,
    made_ms INTEGER NOT NULL
);

CREATE INDEX run_requests_of_run ON run_requests (run_id, id);

-- The workers taking runs from the queue, and when each was last heard from.
CREATE TABLE workers (
    name TEXT PRIMARY KEY NOT NULL,
    -- The team remote it clones runs from.
    remote TEXT NOT NULL,
    started_ms INTEGER NOT NULL,
    seen_ms INTEGER NOT NULL,
    -- The queue entry it works on now, if any.
    entry TEXT
) WITHOUT ROWID;
