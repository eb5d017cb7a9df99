import { useState } from 'react';
import { useApi } from '../api/ApiContext';
import { ConfirmDialog } from './checkpoints/ConfirmDialog';
import { useStartRun } from './checkpoints/useStartRun';
import { BudgetInputs } from './BudgetInputs';
import { budgetFields, formatBudget, parseBudget, type Budget } from './runBudget';
import { ErrorBanner } from '../app/ErrorBanner';

/**
 * Resumes a run its budget stopped: the person raises the limits (the ones it stopped under
 * are the first values) and the run continues under them. Spending counts from the run's
 * start, so a limit must be above what it spent for another stage to run.
 */
export function ResumeBudgetDialog({
  runId,
  stoppedUnder,
  graphBudget,
  onResumed,
  onClose,
}: {
  runId: string;
  /** The limits the run ran under (its latest `run.started`). */
  stoppedUnder: Budget;
  /** The graph's own limits, which apply where a field is left empty. */
  graphBudget: Budget;
  onResumed: () => void;
  onClose: () => void;
}) {
  const api = useApi();
  const [fields, setFields] = useState(() => budgetFields(stoppedUnder));
  const parsed = parseBudget(fields);
  const { busy, error, go } = useStartRun(
    () => api.resumeRun({ run_id: runId, ...(parsed.ok ? parsed.budget : { max_cost_usd: null, max_tokens: null }) }),
    onClose,
    onResumed,
  );
  const before = formatBudget(stoppedUnder);
  return (
    <ConfirmDialog title="Resume with a higher budget?" confirm={{ label: 'Resume', onConfirm: go, disabled: !parsed.ok }} busy={busy} onCancel={onClose}>
      <p>
        The run stopped because it spent more than its budget{before !== null ? <> ({before})</> : null}. Raise the limits to let it
        continue from where it stopped; what it spent so far counts.
      </p>
      <form
        className="start-run start-run__grid"
        data-testid="resume-budget"
        onSubmit={(e) => {
          e.preventDefault();
          if (parsed.ok && !busy) go();
        }}
      >
        <BudgetInputs idPrefix="resume" fields={fields} parsed={parsed} fallback={graphBudget} onChange={setFields} />
      </form>
      {error !== null ? (
        <ErrorBanner title="Could not resume the run" message={error.message} />
      ) : null}
    </ConfirmDialog>
  );
}
