-- Ingesting costs the same per stage however long the run (a test → fix loop visits the same
-- two nodes thousands of times): the lookups of one stage event read only the rows they
-- need, and the run's counts follow its rows instead of being counted again per ingest.

-- The row of a node's stage folder, and a node's latest started visit.
CREATE INDEX stages_by_folder ON stages (run_key, node_id, stage_dir);
CREATE INDEX stages_latest_of_node ON stages (run_key, node_id, start_seq);

-- The stages that used or cost something (command stages do not): the run's sums read only
-- those.
CREATE INDEX stages_priced ON stages (run_key, input_tokens, output_tokens, cost_usd)
    WHERE input_tokens IS NOT NULL OR output_tokens IS NOT NULL OR cost_usd IS NOT NULL;

-- One stage folder's artifacts (replaced when the stage captures again).
CREATE INDEX artifacts_by_stage ON artifacts (run_key, stage, retry, path);

-- Stage rows are only ever added (an upsert updates in place) or removed with their run.
CREATE TRIGGER stages_counted AFTER INSERT ON stages BEGIN
    UPDATE runs SET stage_count = stage_count + 1 WHERE key = NEW.run_key;
END;

CREATE TRIGGER artifacts_counted AFTER INSERT ON artifacts BEGIN
    UPDATE runs SET artifact_count = artifact_count + 1 WHERE key = NEW.run_key;
END;

CREATE TRIGGER artifacts_uncounted AFTER DELETE ON artifacts BEGIN
    UPDATE runs SET artifact_count = artifact_count - 1 WHERE key = OLD.run_key;
END;
