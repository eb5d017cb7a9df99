import { useState } from 'react';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import type { RollbackReport } from '../../generated/RollbackReport';
import type { RunStatus } from '../../generated/RunStatus';
import { ForkDialog } from './ForkDialog';
import { ResumeDialog } from './ResumeDialog';
import { RollbackDialog } from './RollbackDialog';

type Open = 'rollback' | 'fork' | 'resume' | null;

/**
 * What can be done from the selected checkpoint: roll the run back to it, fork a new run
 * from it, or resume the run. Each asks first in a dialog. Rollback and resume wait while
 * the run is executing. A run its budget stopped is resumed through `onRaiseBudget` (the
 * run screen's higher-budget dialog) instead of the plain confirmation.
 */
export function CheckpointActions({
  runId,
  runStatus,
  selected,
  tip,
  entries,
  onRunStarted,
  onRolledBack,
  onRaiseBudget,
}: {
  runId: string;
  runStatus: RunStatus;
  selected: CheckpointEntry;
  tip: CheckpointEntry | null;
  entries: CheckpointEntry[];
  onRunStarted: (runId: string) => void;
  onRolledBack: (report: RollbackReport) => void;
  onRaiseBudget?: (() => void) | undefined;
}) {
  const [open, setOpen] = useState<Open>(null);
  const running = runStatus === 'running';
  const close = () => setOpen(null);
  const whileRunning = running ? 'The run is executing; cancel it or wait for it to stop first.' : undefined;
  return (
    <div className="checkpoint-actions">
      <button
        type="button"
        className="button is-small"
        disabled={running}
        title={whileRunning ?? 'Put the work folder back to this checkpoint and continue the run from here'}
        onClick={() => setOpen('rollback')}
      >
        Roll back here…
      </button>
      <button
        type="button"
        className="button is-small"
        title="Start a new run from this checkpoint"
        onClick={() => setOpen('fork')}
      >
        Fork a new run from here…
      </button>
      <button
        type="button"
        className="button is-small"
        disabled={running}
        title={whileRunning ?? 'Continue the run from its saved state'}
        onClick={() => (onRaiseBudget !== undefined ? onRaiseBudget() : setOpen('resume'))}
      >
        Resume run…
      </button>
      {open === 'rollback' ? (
        <RollbackDialog
          runId={runId}
          target={selected}
          tip={tip}
          entries={entries}
          onRolledBack={onRolledBack}
          onClose={close}
        />
      ) : open === 'fork' ? (
        <ForkDialog runId={runId} from={selected} onRunStarted={onRunStarted} onClose={close} />
      ) : open === 'resume' ? (
        <ResumeDialog
          runId={runId}
          runStatus={runStatus}
          selected={selected}
          tip={tip}
          onRunStarted={onRunStarted}
          onClose={close}
        />
      ) : null}
    </div>
  );
}
