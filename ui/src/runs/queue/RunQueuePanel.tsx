import { useCallback, useMemo, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { toApiError } from '../../api/apiError';
import { QueueEntries } from './QueueEntries';
import { type QueueRow, queueRows, queueSummary, showsQueue, workerRows } from './queueView';
import { QueueWorkers } from './QueueWorkers';
import { useRunQueue } from './useRunQueue';
import './queue.css';

/**
 * The run queue above the runs list: the entries waiting for or held by a worker, and the
 * workers with their heartbeats. Nothing at all while the queue is empty and no worker
 * reported itself. `onHeldRunsChange`: a worker started or stopped holding a run.
 */
export function RunQueuePanel({ onOpenRun, onHeldRunsChange }: { onOpenRun: (runId: string) => void; onHeldRunsChange: () => void }) {
  const api = useApi();
  const { queue, error, reload } = useRunQueue(onHeldRunsChange);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const onCancel = useCallback(
    (row: QueueRow) => {
      setCancelling(row.id);
      setCancelError(null);
      api
        .cancelQueued({ entry: row.id })
        .catch((e: unknown) => setCancelError(`Could not cancel entry ${row.id}: ${toApiError(e).message}`))
        .finally(() => {
          setCancelling(null);
          reload();
        });
    },
    [api, reload],
  );
  const entries = useMemo(() => (queue === null ? [] : queueRows(queue)), [queue]);
  const workers = useMemo(() => (queue === null ? [] : workerRows(queue)), [queue]);
  if (queue === null || !showsQueue(queue)) return null;
  return (
    <section className="run-queue" aria-label="Run queue" data-testid="run-queue">
      <div className="run-queue__entries">
        <header className="run-queue__header">
          <h2>Queue</h2>
          <span className="muted" data-testid="queue-summary">
            {queueSummary(entries)}
          </span>
        </header>
        {error !== null ? (
          <p className="run-queue__error" role="status">
            Could not read the queue again: {error.message}
          </p>
        ) : null}
        {cancelError !== null ? (
          <p className="run-queue__error" role="alert" data-testid="queue-cancel-error">
            {cancelError}
          </p>
        ) : null}
        <QueueEntries rows={entries} onOpenRun={onOpenRun} onCancel={onCancel} cancelling={cancelling} />
      </div>
      <QueueWorkers rows={workers} onOpenRun={onOpenRun} />
    </section>
  );
}
