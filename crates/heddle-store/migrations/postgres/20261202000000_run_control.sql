-- Gates, requests and workers of runs executed on other machines: the same tables as
-- SQLite's migration 20261202000000_run_control, which says what each column holds.
CREATE TABLE run_gates (
    run_id TEXT COLLATE "C" NOT NULL,
    question_id TEXT COLLATE "C" NOT NULL,
    worker TEXT NOT NULL,
    question TEXT NOT NULL,
    PRIMARY KEY (run_id, question_id)
);

CREATE TABLE run_requests (
    id BIGSERIAL PRIMARY KEY,
    run_id TEXT COLLATE "C" NOT NULL,
    request TEXT NOT NULL,
    made_ms BIGINT NOT NULL
);

CREATE INDEX run_requests_of_run ON run_requests (run_id, id);

CREATE TABLE workers (
    name TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    remote TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    entry TEXT
);
