import { loadCheckpointState } from './checkpoints/apiCalls';
import { ContextValues } from './checkpoints/ContextValues';
import { useApiRead } from '../api/useApiRead';
import type { CheckpointMoment } from './scrubContext';

/**
 * Over the graph while the timeline is scrubbed: the moment shown, the checkpoint the run had
 * saved by then, and the context that checkpoint holds (read when the checkpoint changes).
 */
export function ScrubNote({
  runId,
  atMs,
  checkpoint,
  onBack,
}: {
  runId: string;
  /** Time since the run started, in ms. */
  atMs: number;
  checkpoint: CheckpointMoment | null;
  onBack: () => void;
}) {
  const sha = checkpoint?.sha ?? null;
  const saved = useApiRead(sha === null ? null : { run_id: runId, at: sha }, loadCheckpointState);
  return (
    <div className="run-scrub-note" data-testid="scrub-note">
      <div className="run-scrub-note__line">
        <span>
          The run as it was at {(atMs / 1000).toFixed(1)} s
          {checkpoint !== null ? (
            <>
              {' '}
              · last checkpoint after <code>{checkpoint.node}</code>
              {sha !== null ? (
                <>
                  {' '}
                  (<code>{sha.slice(0, 8)}</code>)
                </>
              ) : null}
            </>
          ) : (
            ' · no checkpoint saved yet'
          )}
        </span>
        <button type="button" className="button is-small" onClick={onBack}>
          Back to now
        </button>
      </div>
      {sha !== null ? (
        <details className="run-scrub-note__context" open data-testid="scrub-context">
          <summary>Context at this checkpoint</summary>
          <ContextValues saved={saved} />
        </details>
      ) : null}
    </div>
  );
}
