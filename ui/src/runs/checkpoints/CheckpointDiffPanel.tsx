import { useId } from 'react';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import { DiffView } from '../diff/DiffView';
import { loadCheckpointDiff } from './apiCalls';
import { checkpointLabel, shortSha } from './format';
import { useApiRead } from '../../api/useApiRead';
import { ErrorBanner } from '../../app/ErrorBanner';

/** The choice meaning "the checkpoint before this one". */
const PREVIOUS = '';

/**
 * What changed up to a checkpoint: by default from the checkpoint before it (or the run's
 * start), or from any other checkpoint chosen in the select.
 */
export function CheckpointDiffPanel({
  runId,
  entry,
  entries,
  compareWith,
  onCompareWith,
}: {
  runId: string;
  entry: CheckpointEntry;
  entries: CheckpointEntry[];
  /** The other checkpoint's sha; null for the previous one. */
  compareWith: string | null;
  onCompareWith: (sha: string | null) => void;
}) {
  const selectId = useId();
  const other = compareWith !== null && compareWith !== entry.sha ? compareWith : null;
  const from = other ?? entry.parent;
  const result = useApiRead(from === null ? null : { run_id: runId, from, to: entry.sha }, loadCheckpointDiff);
  const parent = entries.find((e) => e.sha === entry.parent) ?? null;
  const previousLabel =
    parent !== null
      ? `Previous checkpoint: ${checkpointLabel(parent)}`
      : `The run's start${entry.parent !== null ? ` (${shortSha(entry.parent)})` : ''}`;
  const others = [...entries].reverse().filter((e) => e.sha !== entry.sha);

  return (
    <div className="checkpoint-diff" data-testid="checkpoint-diff">
      <div className="checkpoint-diff__choice">
        <label htmlFor={selectId}>Changes from</label>
        <select
          id={selectId}
          value={other ?? PREVIOUS}
          onChange={(e) => onCompareWith(e.target.value === PREVIOUS ? null : e.target.value)}
        >
          <option value={PREVIOUS}>{previousLabel}</option>
          {others.map((e) => (
            <option key={e.sha} value={e.sha}>
              {checkpointLabel(e)}
            </option>
          ))}
        </select>
        <span className="muted">to this checkpoint</span>
      </div>
      {from === null ? (
        <p className="checkpoint-pane__note">This checkpoint has nothing before it to compare with.</p>
      ) : result.state === 'loading' ? (
        <p className="checkpoint-pane__note" role="status">
          <span className="spinner" aria-hidden="true" /> Comparing…
        </p>
      ) : result.state === 'failed' ? (
        <ErrorBanner title="Could not compare the checkpoints" message={result.error.message} />
      ) : (
        <DiffView key={`${from}..${entry.sha}`} files={result.value.files} />
      )}
    </div>
  );
}
