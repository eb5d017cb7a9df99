import type { QueueRow } from './queueView';

interface EntryActions {
  onOpenRun: (runId: string) => void;
  /** Cancel the entry (or its run, as `row.cancel` says). */
  onCancel: (row: QueueRow) => void;
  /** The entry whose cancel is on its way, if any. */
  cancelling: string | null;
}

/** The queue's waiting and held entries: workflow, goal, age, worker; a started one opens its run. */
export function QueueEntries({ rows, ...actions }: { rows: QueueRow[] } & EntryActions) {
  if (rows.length === 0) return <p className="muted run-queue__empty">Nothing waits for a worker.</p>;
  return (
    <table className="runs-table run-queue__table">
      <thead>
        <tr>
          <th scope="col">State</th>
          <th scope="col">Workflow</th>
          <th scope="col">Queued</th>
          <th scope="col">Worker</th>
          <th scope="col">Entry</th>
          <th scope="col" aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <QueueEntryRow key={row.id} row={row} {...actions} />
        ))}
      </tbody>
    </table>
  );
}

function QueueEntryRow({ row, onOpenRun, onCancel, cancelling }: { row: QueueRow } & EntryActions) {
  const { runId, cancel } = row;
  return (
    <tr data-testid="queue-entry" data-entry-id={row.id} data-state={row.state}>
      <td>
        <span className={`queue-state-badge is-${row.state}`}>{row.stateLabel}</span>
      </td>
      <td>
        {runId !== null ? (
          <button
            type="button"
            className="link-button runs-table__open"
            title={`Open run ${runId}`}
            onClick={() => onOpenRun(runId)}
          >
            {row.workflow}
          </button>
        ) : (
          <span className="run-queue__workflow">{row.workflow}</span>
        )}
        {row.goal !== null ? <div className="runs-table__goal muted">{row.goal}</div> : null}
        {row.labels.length > 0 || row.dryRun ? (
          <div>
            {row.labels.map((label) => (
              <span key={label} className="label-chip">
                {label}
              </span>
            ))}
            {row.dryRun ? <span className="label-chip is-muted">dry run</span> : null}
          </div>
        ) : null}
      </td>
      <td className="runs-table__number" title={row.queuedAt}>
        {row.queuedAgo}
      </td>
      <td data-testid="queue-entry-worker">
        {row.worker !== null ? <div className="run-queue__worker">{row.worker}</div> : <span className="muted">–</span>}
        {row.lostNote !== null ? <div className="run-queue__note is-lost">{row.lostNote}</div> : null}
        {row.heartbeat !== null ? <div className="run-queue__note muted">{row.heartbeat}</div> : null}
        {row.takeovers !== null ? <div className="run-queue__note muted">{row.takeovers}</div> : null}
      </td>
      <td className="runs-table__id">
        <code>{row.id}</code>
      </td>
      <td className="run-queue__actions">
        {cancel !== null ? (
          <button
            type="button"
            className="button is-small"
            data-testid="queue-entry-cancel"
            title={cancel.title}
            disabled={cancelling === row.id}
            onClick={() => onCancel(row)}
          >
            {cancelling === row.id ? 'Cancelling…' : cancel.label}
          </button>
        ) : null}
      </td>
    </tr>
  );
}
