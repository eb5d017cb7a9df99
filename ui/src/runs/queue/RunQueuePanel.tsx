import { useMemo } from 'react';
import { QueueEntries } from './QueueEntries';
import { queueRows, queueSummary, showsQueue, workerRows } from './queueView';
import { QueueWorkers } from './QueueWorkers';
import { useRunQueue } from './useRunQueue';
import './queue.css';

/**
 * The run queue above the runs list: the entries waiting for or held by a worker, and the
 * workers with their heartbeats. Nothing at all while the queue is empty and no worker
 * reported itself. `onHeldRunsChange`: a worker started or stopped holding a run.
 */
export function RunQueuePanel({ onOpenRun, onHeldRunsChange }: { onOpenRun: (runId: string) => void; onHeldRunsChange: () => void }) {
  const { queue, error } = useRunQueue(onHeldRunsChange);
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
        <QueueEntries rows={entries} onOpenRun={onOpenRun} />
      </div>
      <QueueWorkers rows={workers} onOpenRun={onOpenRun} />
    </section>
  );
}
