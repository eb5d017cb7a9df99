-- The run index. Everything here is derived from run folders (`runs/YYYYMMDD-{ulid}/`)
-- and can be rebuilt with `heddle reindex`; only recent_workflows is not derived.

-- One row per run folder (manager-loop child runs included, with parent_run_id set).
CREATE TABLE runs (
    key INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    folder TEXT NOT NULL UNIQUE,
    workflow_name TEXT NOT NULL,
    workflow_path TEXT NOT NULL,
    goal TEXT,
    -- manifest labels as a JSON object; run_labels holds the same pairs for filtering.
    labels TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL
        CHECK (status IN ('running', 'success', 'fail', 'cancelled', 'interrupted')),
    started_at TEXT NOT NULL,
    -- started_at as milliseconds since the Unix epoch: ordering, date filters, cursors.
    started_ms INTEGER NOT NULL,
    ended_at TEXT,
    duration_ms INTEGER,
    failure_reason TEXT,
    checkpoint_mode TEXT NOT NULL,
    run_branch TEXT,
    base_sha TEXT,
    final_sha TEXT,
    artifact_count INTEGER NOT NULL DEFAULT 0,
    stage_count INTEGER NOT NULL DEFAULT 0,
    event_count INTEGER NOT NULL DEFAULT 0,
    dry_run BOOLEAN NOT NULL DEFAULT FALSE,
    parent_run_id TEXT,
    work_dir TEXT NOT NULL,
    node_count INTEGER NOT NULL DEFAULT 0,
    edge_count INTEGER NOT NULL DEFAULT 0,
    -- The node of the latest stage.started.
    current_node TEXT,
    -- Ingest position in progress.jsonl: bytes and whole lines consumed, last seq seen.
    ingest_offset INTEGER NOT NULL DEFAULT 0,
    ingest_line INTEGER NOT NULL DEFAULT 0,
    last_seq INTEGER NOT NULL DEFAULT 0,
    -- Size and mtime of git.json when the checkpoints were last read (NULL: read again).
    git_signature TEXT,
    -- Size and mtime of manifest.json when it was last read (a rollback rewrites it).
    manifest_signature TEXT,
    -- The first unreadable progress.jsonl line met (file, line, what is wrong).
    ingest_error TEXT
);

CREATE INDEX runs_by_start ON runs (started_ms DESC, id DESC);
CREATE INDEX runs_by_status ON runs (status, started_ms DESC, id DESC);
CREATE INDEX runs_by_workflow ON runs (workflow_name, started_ms DESC, id DESC);
-- Top-level runs (parent_run_id IS NULL), newest first, without a sort; and children.
CREATE INDEX runs_by_parent ON runs (parent_run_id, started_ms DESC, id DESC);

CREATE TABLE run_labels (
    run_key INTEGER NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (run_key, key)
) WITHOUT ROWID;

CREATE INDEX run_labels_by_pair ON run_labels (key, value, run_key);

-- One row per stage visit, derived from stage.* events.
CREATE TABLE stages (
    run_key INTEGER NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
    node_id TEXT NOT NULL,
    visit INTEGER NOT NULL,
    -- seq of the visit's first stage.started: the timeline's order.
    start_seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    -- The parallel branch (lane) the stage ran in.
    branch TEXT,
    -- running, success, fail, partial_success, retry, skipped
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 1,
    retries INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    duration_ms INTEGER,
    notes TEXT,
    failure_reason TEXT,
    failure_class TEXT,
    last_retry_reason TEXT,
    stage_dir TEXT NOT NULL,
    PRIMARY KEY (run_key, node_id, visit)
) WITHOUT ROWID;

CREATE INDEX stages_in_order ON stages (run_key, start_seq);

-- Human gate waits: interview.started .. interview.answered / interview.timed_out.
CREATE TABLE human_waits (
    run_key INTEGER NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
    question_id TEXT NOT NULL,
    node_id TEXT NOT NULL,
    visit INTEGER NOT NULL,
    start_seq INTEGER NOT NULL,
    question TEXT NOT NULL,
    -- JSON array of the choices' labels.
    choices TEXT NOT NULL DEFAULT '[]',
    started_at TEXT NOT NULL,
    ended_at TEXT,
    duration_ms INTEGER,
    -- NULL while waiting, then answered or timed_out.
    outcome TEXT,
    -- The chosen label (or freeform text, or the default choice taken).
    answer TEXT,
    PRIMARY KEY (run_key, question_id)
) WITHOUT ROWID;

-- progress.jsonl, one row per event.
CREATE TABLE events (
    run_key INTEGER NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL,
    ts TEXT NOT NULL,
    node_id TEXT,
    event TEXT NOT NULL,
    -- The properties object as JSON text.
    properties TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (run_key, seq)
) WITHOUT ROWID;

-- Git checkpoints across every timeline (heddle_checkpoint::history::list).
CREATE TABLE checkpoints (
    run_key INTEGER NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    sha TEXT NOT NULL,
    node_id TEXT NOT NULL,
    status TEXT NOT NULL,
    completed INTEGER NOT NULL,
    timeline INTEGER NOT NULL,
    -- JSON array of the timeline branches containing the commit.
    branches TEXT NOT NULL DEFAULT '[]',
    time TEXT NOT NULL,
    parent TEXT,
    metadata_sha TEXT NOT NULL,
    current BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (run_key, position)
) WITHOUT ROWID;

-- Captured test artifacts (artifacts/{stage}/retry_{n}/manifest.json).
CREATE TABLE artifacts (
    run_key INTEGER NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
    path TEXT NOT NULL,
    stage TEXT NOT NULL,
    node_id TEXT NOT NULL,
    retry INTEGER NOT NULL,
    source TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    media_type TEXT NOT NULL,
    kind TEXT NOT NULL,
    PRIMARY KEY (run_key, path)
) WITHOUT ROWID;

-- Workflows a person opened (not derived from runs; reindex leaves it alone).
CREATE TABLE recent_workflows (
    path TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    last_opened TEXT NOT NULL,
    last_opened_ms INTEGER NOT NULL
);

CREATE INDEX recent_workflows_by_time ON recent_workflows (last_opened_ms DESC);
