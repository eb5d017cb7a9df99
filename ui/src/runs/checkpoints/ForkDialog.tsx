import { useApi } from '../../api/ApiContext';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import { loadRun } from './apiCalls';
import { ConfirmDialog } from './ConfirmDialog';
import { formatTime, nodesCompleted, shortSha } from './format';
import { useApiRead } from '../../api/useApiRead';
import { useStartRun } from './useStartRun';
import { ErrorBanner } from '../../app/ErrorBanner';

/** What forking does to files, which depends on how the run keeps its checkpoints. */
function WorkFolderEffect({ mode, workDir }: { mode: string | null; workDir: string | null }) {
  const shared = (
    <>
      the work folder {workDir !== null ? <code>{workDir}</code> : null} is shared with the new run: its current
      state is saved as a recovery snapshot of the new run, then this checkpoint's files are written into it. This
      run's checkpoints and timelines are not changed.
    </>
  );
  const own = (
    <>
      the new run gets its own branch and its own worktree in its run folder. This run, its timelines and its work
      folder are not changed.
    </>
  );
  if (mode === 'shadow') return <li>This run keeps its checkpoints in a shadow repository, so {shared}</li>;
  if (mode === 'worktree') return <li>This run has a git worktree, so {own}</li>;
  return (
    <>
      <li>If this run has a git worktree, {own}</li>
      <li>If it keeps its checkpoints in a shadow repository, {shared}</li>
    </>
  );
}

/** Asks before starting a new run from checkpoint `from`, saying what it gets and what stays. */
export function ForkDialog({
  runId,
  from,
  onRunStarted,
  onClose,
}: {
  runId: string;
  from: CheckpointEntry;
  onRunStarted: (runId: string) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const run = useApiRead({ run_id: runId }, loadRun);
  const { busy, error, go: fork } = useStartRun(() => api.forkRun({ run_id: runId, from: from.sha }), onClose, onRunStarted);
  const record = run.state === 'ready' ? run.value : null;
  return (
    <ConfirmDialog
      title={`Fork a new run from ${from.node_id}?`}
      confirm={{ label: 'Fork', onConfirm: fork }}
      busy={busy}
      onCancel={onClose}
    >
      <p>
        A new run starts from checkpoint <code>{shortSha(from.sha)}</code>, made after <code>{from.node_id}</code> (
        {formatTime(from.time)}), and starts executing right away.
      </p>
      <ul className="confirm-dialog__facts">
        <li>
          It gets this checkpoint's files and saved state ({nodesCompleted(from.completed)}, the context as it was) and
          continues after <code>{from.node_id}</code>. It keeps this run's labels and gets{' '}
          <code>
            forked_from={record?.id ?? runId}@{from.sha.slice(0, 12)}
          </code>
          .
        </li>
        <WorkFolderEffect mode={record?.checkpoint_mode ?? null} workDir={record?.work_dir ?? null} />
      </ul>
      {error !== null ? (
        <ErrorBanner title="Could not fork the run" message={error.message} />
      ) : null}
    </ConfirmDialog>
  );
}
