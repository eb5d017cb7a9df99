-- The budget a run runs under, as its latest run.started event (a start or a resume)
-- recorded it; NULL: no limit of that kind (or a run recorded before the limits were).
ALTER TABLE runs ADD COLUMN max_cost_usd REAL;
ALTER TABLE runs ADD COLUMN max_tokens INTEGER;
