import { useApi } from '../../api/ApiContext';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import type { RunStatus } from '../../generated/RunStatus';
import { ConfirmDialog } from './ConfirmDialog';
import { shortSha } from './format';
import { useStartRun } from './useStartRun';
import { ErrorBanner } from '../../app/ErrorBanner';

/**
 * Asks before resuming the run: it continues from its own saved state (the current tip),
 * not from the checkpoint selected in the browser, which the dialog points out.
 */
export function ResumeDialog({
  runId,
  runStatus,
  selected,
  tip,
  onRunStarted,
  onClose,
}: {
  runId: string;
  runStatus: RunStatus;
  selected: CheckpointEntry;
  tip: CheckpointEntry | null;
  onRunStarted: (runId: string) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const { busy, error, go: resume } = useStartRun(() => api.resumeRun({ run_id: runId, max_cost_usd: null, max_tokens: null }), onClose, onRunStarted);
  return (
    <ConfirmDialog title="Resume the run?" confirm={{ label: 'Resume', onConfirm: resume }} busy={busy} onCancel={onClose}>
      <p>
        The run (now {runStatus}) starts executing again on its current timeline, from its saved state
        {tip !== null ? (
          <>
            : after <code>{tip.node_id}</code> (checkpoint <code>{shortSha(tip.sha)}</code>)
          </>
        ) : null}
        . Its stages go on changing the files in its work folder.
      </p>
      {tip !== null && selected.sha !== tip.sha ? (
        <p className="confirm-dialog__note">
          It does not continue from the selected checkpoint (<code>{selected.node_id}</code>,{' '}
          <code>{shortSha(selected.sha)}</code>). To continue from there, roll back to it first, or fork a new run from
          it.
        </p>
      ) : null}
      {runStatus === 'success' ? (
        <p className="confirm-dialog__note">
          The run is recorded as completed successfully; Heddle refuses to resume it unless it was rolled back since.
        </p>
      ) : null}
      {error !== null ? (
        <ErrorBanner title="Could not resume the run" message={error.message} />
      ) : null}
    </ConfirmDialog>
  );
}
