import { useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { toApiError } from '../../api/apiError';
import type { ApiError } from '../../generated/ApiError';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import type { RollbackReport } from '../../generated/RollbackReport';
import { loadCheckpointDiff, loadRun } from './apiCalls';
import { ConfirmDialog, type ConfirmAction } from './ConfirmDialog';
import { formatTime, nodesCompleted, shortSha } from './format';
import { PathList } from './PathList';
import { changedOutsideFiles, nodeRunAfter } from './rollbackPlan';
import { RollbackPlanView } from './RollbackPlanView';
import { RollbackReportView } from './RollbackReportView';
import { useApiRead } from '../../api/useApiRead';
import { ErrorBanner } from '../../app/ErrorBanner';

type Step =
  | { kind: 'confirm' }
  | { kind: 'working'; force: boolean }
  | { kind: 'changed-outside'; files: string[] | null; message: string }
  | { kind: 'failed'; error: ApiError }
  | { kind: 'done'; report: RollbackReport };

/** Why the API refused, said for this dialog. */
function Refusal({ step }: { step: Step }) {
  if (step.kind === 'changed-outside') {
    return (
      <div className="banner is-warning" role="alert" data-testid="rollback-changed-outside">
        <strong>Files changed outside the run since its last checkpoint</strong>
        {step.files !== null ? <PathList title="Changed" paths={step.files} /> : <span>{step.message}</span>}
        <span>
          Rolling back anyway undoes these changes too (files created outside the run are deleted); the recovery
          snapshot keeps a copy of them.
        </span>
      </div>
    );
  }
  if (step.kind === 'failed') {
    return (
      <ErrorBanner title={step.error.code === 'busy' ? 'The run is executing' : 'The rollback failed'} message={step.error.message} />
    );
  }
  return null;
}

/**
 * Asks before rolling the run back to `target`, saying exactly what changes: the files
 * (from the diff between `target` and the current tip), where the run resumes, the
 * recovery snapshot and the new timeline. Offers "Roll back anyway" when files changed
 * outside the run; shows the report once done.
 */
export function RollbackDialog({
  runId,
  target,
  tip,
  entries,
  onRolledBack,
  onClose,
}: {
  runId: string;
  target: CheckpointEntry;
  tip: CheckpointEntry | null;
  entries: CheckpointEntry[];
  onRolledBack: (report: RollbackReport) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const [step, setStep] = useState<Step>({ kind: 'confirm' });
  const diff = useApiRead({ run_id: runId, from: target.sha, to: tip?.sha ?? null }, loadCheckpointDiff);
  const run = useApiRead({ run_id: runId }, loadRun);
  const after = nodeRunAfter(entries, target.sha);

  const rollBack = (force: boolean) => {
    setStep({ kind: 'working', force });
    api.rollbackRun({ run_id: runId, to: target.sha, force }).then(
      (report) => {
        setStep({ kind: 'done', report });
        onRolledBack(report);
      },
      (reason: unknown) => {
        const error = toApiError(reason);
        setStep(
          error.code === 'changed_outside'
            ? { kind: 'changed-outside', files: changedOutsideFiles(error.message), message: error.message }
            : { kind: 'failed', error },
        );
      },
    );
  };

  if (step.kind === 'done') {
    return (
      <ConfirmDialog title="Rolled back" confirm={null} onCancel={onClose}>
        <RollbackReportView report={step.report} />
      </ConfirmDialog>
    );
  }
  const forced = step.kind === 'changed-outside' || (step.kind === 'working' && step.force);
  const confirm: ConfirmAction = forced
    ? { label: 'Roll back anyway', onConfirm: () => rollBack(true), danger: true }
    : { label: 'Roll back', onConfirm: () => rollBack(false), danger: true, disabled: diff.state === 'loading' };
  const workFolder = run.state === 'ready' ? <code>{run.value.work_dir}</code> : "the run's work folder";

  return (
    <ConfirmDialog
      title={`Roll back to ${target.node_id}?`}
      confirm={confirm}
      busy={step.kind === 'working'}
      onCancel={onClose}
    >
      <p>
        The files in {workFolder} go back to checkpoint <code>{shortSha(target.sha)}</code>, made after{' '}
        <code>{target.node_id}</code> ({formatTime(target.time)}).
      </p>
      <RollbackPlanView diff={diff} />
      <ul className="confirm-dialog__facts">
        <li>
          These are the differences from the last checkpoint
          {tip !== null ? (
            <>
              {' '}
              (<code>{shortSha(tip.sha)}</code>, after <code>{tip.node_id}</code>)
            </>
          ) : null}
          . Files changed outside the run since then stop the rollback, which names them first. Ignored files are not
          touched.
        </li>
        <li>
          The run's saved state becomes this checkpoint's ({nodesCompleted(target.completed)}) and its recorded ending
          is cleared. Nothing runs until you resume it; it then continues after <code>{target.node_id}</code>
          {after !== null ? (
            <>
              {' '}
              (last time, <code>{after}</code> ran next)
            </>
          ) : null}
          .
        </li>
        <li>
          A recovery snapshot of the work folder as it is now is committed first (under{' '}
          <code>refs/heddle/recovery/</code>), so nothing is lost.
        </li>
        <li>
          A new timeline starts at this checkpoint and the run continues on it. The current timeline and its checkpoints
          stay as they are.
        </li>
      </ul>
      <Refusal step={step} />
    </ConfirmDialog>
  );
}
