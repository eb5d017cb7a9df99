-- What LLM calls used and cost, per stage visit (from stage.completed / stage.failed) and
-- summed per run. NULL cost: no price was known (or no LLM call was made).
ALTER TABLE stages ADD COLUMN input_tokens INTEGER;
ALTER TABLE stages ADD COLUMN output_tokens INTEGER;
ALTER TABLE stages ADD COLUMN cost_usd REAL;

ALTER TABLE runs ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN cost_usd REAL;
