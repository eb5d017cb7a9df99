import type { RunStatus } from '../generated/RunStatus';
import { RUN_STATUS_LABEL } from './runFormat';
import './runColors.css';
import './runs.css';

/** A run's status as a coloured pill (pulsing while it runs). */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  return (
    <span className={`run-status-badge is-${status}`} data-testid="run-status">
      {RUN_STATUS_LABEL[status]}
    </span>
  );
}
