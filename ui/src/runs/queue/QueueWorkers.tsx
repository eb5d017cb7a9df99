import type { WorkerRow, WorkerWork } from './queueView';

/** The workers taking from the queue: when each was last heard from, and what it works on. */
export function QueueWorkers({ rows, onOpenRun }: { rows: WorkerRow[]; onOpenRun: (runId: string) => void }) {
  return (
    <aside className="run-queue__workers" aria-label="Workers" data-testid="queue-workers">
      <h3>Workers</h3>
      {rows.length === 0 ? (
        <p className="muted run-queue__empty">
          No worker takes from the queue. Start one with <code>heddle worker --remote …</code>
        </p>
      ) : (
        <ul>
          {rows.map((worker) => (
            <li
              key={worker.name}
              className={`queue-worker is-${worker.health}`}
              data-testid="queue-worker"
              data-worker={worker.name}
              data-health={worker.health}
            >
              <div className="queue-worker__line">
                <span className="queue-worker__dot" aria-hidden="true" />
                <strong className="queue-worker__name">{worker.name}</strong>
                <span className={`queue-worker__aside${worker.health === 'alive' ? ' muted' : ' queue-worker__unwell'}`} data-testid="queue-worker-seen">
                  {worker.seen}
                </span>
              </div>
              <div className="queue-worker__line muted">
                <code className="queue-worker__remote" title={worker.remote}>
                  {worker.remote}
                </code>
                <span className="queue-worker__aside" title={worker.startedAt}>
                  {worker.startedAgo}
                </span>
              </div>
              <div className="queue-worker__line" data-testid="queue-worker-work">
                {worker.work === null ? <span className="muted">idle</span> : <WorkerWorkLink work={worker.work} onOpenRun={onOpenRun} />}
              </div>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}

/** What a worker works on: its run's workflow, opening the run once there is one. */
function WorkerWorkLink({ work, onOpenRun }: { work: WorkerWork; onOpenRun: (runId: string) => void }) {
  const { runId } = work;
  return (
    <>
      <span className="muted">on</span>
      {runId !== null ? (
        <button type="button" className="link-button" title={`Open run ${runId}`} onClick={() => onOpenRun(runId)}>
          {work.workflow ?? runId}
        </button>
      ) : (
        <span>{work.workflow ?? `entry ${work.entryId}`}</span>
      )}
    </>
  );
}
