import type { CheckpointDiff } from '../../generated/CheckpointDiff';
import type { ApiRead } from '../../api/useApiRead';
import { PathList } from './PathList';
import { rollbackPlan } from './rollbackPlan';
import { ErrorBanner } from '../../app/ErrorBanner';

/** The files a rollback will rewrite, restore or delete, from the diff target → current tip. */
export function RollbackPlanView({ diff }: { diff: ApiRead<CheckpointDiff> }) {
  if (diff.state === 'loading') {
    return (
      <p className="confirm-dialog__note" role="status">
        <span className="spinner" aria-hidden="true" /> Working out which files change…
      </p>
    );
  }
  if (diff.state === 'failed') {
    return (
      <ErrorBanner title="Could not work out which files change" message={diff.error.message} />
    );
  }
  const plan = rollbackPlan(diff.value.files);
  if (plan.rewritten.length + plan.restored.length + plan.deleted.length === 0) {
    return (
      <p className="confirm-dialog__note" data-testid="rollback-no-files">
        No files change: the last checkpoint already has this checkpoint's files.
      </p>
    );
  }
  return (
    <div className="rollback-plan" data-testid="rollback-plan">
      <PathList title="Rewritten" paths={plan.rewritten} testId="rollback-rewritten" />
      <PathList title="Written back (deleted since)" paths={plan.restored} testId="rollback-restored" />
      <PathList title="Deleted (created since)" paths={plan.deleted} testId="rollback-deleted" />
    </div>
  );
}
