import type { RunRecord } from '../generated/RunRecord';
import { formatBudget, type Budget } from './runBudget';
import { RunStatusBadge } from './RunStatusBadge';
import { canResume, formatDuration, formatStarted } from './runFormat';

/** The run's name, status, timing, budget and what can be done with it (cancel, resume). */
export function RunHeader({
  record,
  now,
  busy,
  budget,
  onBack,
  onCancel,
  onResume,
}: {
  record: RunRecord;
  now: number;
  busy: boolean;
  /** The limits the run's latest start or resume ran under. */
  budget: Budget;
  onBack: () => void;
  onCancel: () => void;
  onResume: () => void;
}) {
  const limits = formatBudget(budget);
  const duration = record.duration_ms ?? (record.status === 'running' ? now - Date.parse(record.started_at) : null);
  return (
    <header className="run-header" data-testid="run-header" data-status={record.status}>
      <button type="button" className="button is-small" onClick={onBack}>
        ← Runs
      </button>
      <div className="run-header__title">
        <h2>{record.workflow_name}</h2>
        <RunStatusBadge status={record.status} />
        {record.dry_run ? <span className="label-chip is-muted">dry run</span> : null}
      </div>
      <dl className="run-header__facts">
        <dt>Run</dt>
        <dd>
          <code>{record.id}</code>
        </dd>
        <dt>Started</dt>
        <dd title={record.started_at}>{formatStarted(record.started_at, now)}</dd>
        <dt>Duration</dt>
        <dd>{duration === null ? '–' : formatDuration(duration)}</dd>
        {record.current_node !== null && record.status === 'running' ? (
          <>
            <dt>At</dt>
            <dd>
              <code>{record.current_node}</code>
            </dd>
          </>
        ) : null}
        {limits !== null ? (
          <>
            <dt>Budget</dt>
            <dd data-testid="run-budget">{limits}</dd>
          </>
        ) : null}
        {Object.keys(record.inputs).length > 0 ? (
          <>
            <dt>Inputs</dt>
            {Object.entries(record.inputs).map(([k, v]) => (
              <dd key={`input-${k}`} className="label-chip run-header__input" data-testid="run-input">
                <code>{k}</code>={v}
              </dd>
            ))}
          </>
        ) : null}
        {Object.entries(record.labels).map(([k, v]) => (
          <dd key={k} className="label-chip">
            {k}={v}
          </dd>
        ))}
      </dl>
      {record.goal !== null ? <p className="run-header__goal muted">{record.goal}</p> : null}
      <div className="run-header__actions">
        {record.status === 'running' ? (
          <button type="button" className="button is-danger" disabled={busy} onClick={onCancel}>
            Cancel run
          </button>
        ) : null}
        {canResume(record.status) ? (
          <button type="button" className="button is-primary" disabled={busy} onClick={onResume}>
            Resume
          </button>
        ) : null}
      </div>
      {record.failure_reason !== null && record.status !== 'running' ? (
        <p className="banner is-error run-header__failure" role="note">
          {record.failure_reason}
        </p>
      ) : null}
    </header>
  );
}
