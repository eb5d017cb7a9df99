import type { QueuedEntry } from '../../generated/QueuedEntry';
import type { RunQueue } from '../../generated/RunQueue';
import type { WorkerRecord } from '../../generated/WorkerRecord';

/**
 * What the runs list shows of the run queue: the entries not finished yet and the workers,
 * with every age measured against the answering server's clock (`RunQueue.now_ms`), never
 * the viewer's.
 */

/** The lease `heddle worker` takes unless told otherwise (`--lease 30`). */
export const DEFAULT_LEASE_MS = 30_000;
/**
 * A worker not heard from for this long is shown as stale: three default leases, so a busy
 * worker (it reports itself every third of its lease) would have missed nine reports.
 */
export const WORKER_STALE_MS = 3 * DEFAULT_LEASE_MS;

/** Where an entry shown stands: waiting for a worker, held by one, or its worker lost. */
export type QueueRowState = 'queued' | 'claimed' | 'lost';

/** One queue entry as the queue section shows it. */
export interface QueueRow {
  id: string;
  state: QueueRowState;
  /** The state's word for the badge. */
  stateLabel: string;
  /** The workflow's path in the team's repository (or why it is unknown). */
  workflow: string;
  goal: string | null;
  /** Its labels as `key=value`. */
  labels: string[];
  dryRun: boolean;
  /** `12 s ago`. */
  queuedAgo: string;
  /** When it was queued, exactly (ISO 8601), for a tooltip. */
  queuedAt: string;
  /** The worker holding it, or that held it when it was lost; null while it waits. */
  worker: string | null;
  /** `heartbeat 4 s ago` (`last heartbeat 45 s ago` when lost); null while it waits. */
  heartbeat: string | null;
  /** That its worker is lost and it waits for another, when its lease ran out; else null. */
  lostNote: string | null;
  /** `taken over once` when a worker died holding it; null when claimed at most once. */
  takeovers: string | null;
  /** The run its worker started, once there is one. */
  runId: string | null;
  /** What cancelling it does, when it can be cancelled from the list (see `cancelOf`). */
  cancel: QueueCancel | null;
}

/**
 * What the Cancel button of an entry does: `entry` for one that waits (it never runs), `run`
 * for a held one whose run started (`cancel_queued` cancels the run). An entry held by a
 * worker still setting its run up has no button: there is nothing to cancel yet.
 */
export interface QueueCancel {
  kind: 'entry' | 'run';
  label: string;
  title: string;
}

/** The Cancel button of an entry standing at `state` with run `runId`; null when there is none. */
export function cancelOf(state: QueueRowState, runId: string | null): QueueCancel | null {
  if (state === 'queued') return { kind: 'entry', label: 'Cancel', title: 'Take it off the queue: no worker will run it' };
  if (runId === null) return null;
  return { kind: 'run', label: 'Cancel run', title: `Cancel run ${runId}: it stops after saving a checkpoint` };
}

/**
 * Whether a worker seems to be working: `alive`; `lost` when the lease of the entry it holds
 * ran out (it missed its heartbeats); `stale` when not heard from for `WORKER_STALE_MS`.
 */
export type WorkerHealth = 'alive' | 'lost' | 'stale';

/** One worker as the workers list shows it. */
export interface WorkerRow {
  name: string;
  remote: string;
  health: WorkerHealth;
  /** When it was last heard from, and what that means: `seen 3 s ago`, `stale, seen 2 min ago`. */
  seen: string;
  /** `started 5 min ago`. */
  startedAgo: string;
  /** When it started, exactly (ISO 8601), for a tooltip. */
  startedAt: string;
  /** The entry it works on, and its workflow and run where the queue knows them; null when idle. */
  work: WorkerWork | null;
}

export interface WorkerWork {
  entryId: string;
  workflow: string | null;
  runId: string | null;
}

/** How long ago something happened, `ms` before now: `just now`, `4 s ago`, `3 min ago`, `2 h ago`, `5 d ago`. */
export function formatAgo(ms: number): string {
  // Below a second, and when the clocks of two machines disagree (a heartbeat "from the future").
  if (!Number.isFinite(ms) || ms < 1000) return 'just now';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** How often an entry changed hands, from how many times it was claimed: null for once or never. */
export function formatTakeovers(claims: number): string | null {
  const takeovers = claims - 1;
  if (takeovers < 1) return null;
  return takeovers === 1 ? 'taken over once' : `taken over ${takeovers} times`;
}

/** Whether an entry's worker lost it: claimed, and the lease ran out (the worker died or lost the database). */
export function leaseRanOut(entry: QueuedEntry, nowMs: number): boolean {
  return entry.state === 'claimed' && entry.lease_until_ms !== null && entry.lease_until_ms < nowMs;
}

function rowState(entry: QueuedEntry, nowMs: number): QueueRowState {
  if (entry.state !== 'claimed') return 'queued';
  return leaseRanOut(entry, nowMs) ? 'lost' : 'claimed';
}

const STATE_LABEL: Record<QueueRowState, string> = {
  queued: 'Queued',
  claimed: 'Claimed',
  lost: 'Worker lost',
};

function heartbeat(entry: QueuedEntry, state: QueueRowState, nowMs: number): string | null {
  if (state === 'queued' || entry.heartbeat_ms === null) return null;
  const ago = formatAgo(nowMs - entry.heartbeat_ms);
  return state === 'lost' ? `last heartbeat ${ago}` : `heartbeat ${ago}`;
}

/** An entry of the queue as a row of the queue section. */
export function queueRow(entry: QueuedEntry, nowMs: number): QueueRow {
  const state = rowState(entry, nowMs);
  const run = entry.run;
  return {
    id: entry.id,
    state,
    stateLabel: STATE_LABEL[state],
    workflow: run?.workflow ?? 'a run this version of Heddle cannot read',
    goal: run?.goal ?? null,
    labels: Object.entries(run?.labels ?? {}).map(([key, value]) => `${key}=${value}`),
    dryRun: run?.dry_run ?? false,
    queuedAgo: formatAgo(nowMs - entry.enqueued_ms),
    queuedAt: new Date(entry.enqueued_ms).toISOString(),
    worker: state === 'queued' ? null : entry.worker,
    heartbeat: heartbeat(entry, state, nowMs),
    lostNote: state === 'lost' ? 'worker lost — waiting for another worker' : null,
    takeovers: formatTakeovers(entry.claims),
    runId: entry.run_id,
    cancel: cancelOf(state, entry.run_id),
  };
}

/** The entries the queue section lists: those not finished, in the queue's order (oldest first). */
export function queueRows(queue: RunQueue): QueueRow[] {
  return queue.entries.filter((entry) => entry.state !== 'finished').map((entry) => queueRow(entry, queue.now_ms));
}

function workerHealth(worker: WorkerRecord, entry: QueuedEntry | undefined, nowMs: number): WorkerHealth {
  if (entry !== undefined && entry.worker === worker.name && leaseRanOut(entry, nowMs)) return 'lost';
  return nowMs - worker.seen_ms > WORKER_STALE_MS ? 'stale' : 'alive';
}

const HEALTH_PREFIX: Record<WorkerHealth, string> = { alive: '', lost: 'lost its lease, ', stale: 'stale, ' };

/** A worker as a row of the workers list; `entries` are the queue's, to name what it works on. */
export function workerRow(worker: WorkerRecord, entries: readonly QueuedEntry[], nowMs: number): WorkerRow {
  const entry = worker.entry === null ? undefined : entries.find((e) => e.id === worker.entry);
  const health = workerHealth(worker, entry, nowMs);
  return {
    name: worker.name,
    remote: worker.remote,
    health,
    seen: `${HEALTH_PREFIX[health]}seen ${formatAgo(nowMs - worker.seen_ms)}`,
    startedAgo: `started ${formatAgo(nowMs - worker.started_ms)}`,
    startedAt: new Date(worker.started_ms).toISOString(),
    work:
      worker.entry === null
        ? null
        : { entryId: worker.entry, workflow: entry?.run?.workflow ?? null, runId: entry?.run_id ?? null },
  };
}

/** The workers list, in the queue's order (by name). */
export function workerRows(queue: RunQueue): WorkerRow[] {
  return queue.workers.map((worker) => workerRow(worker, queue.entries, queue.now_ms));
}

/**
 * Whether the runs list shows the queue at all: only when something waits, is held, or a
 * worker reported itself (one person on one machine sees the runs list as it always was).
 */
export function showsQueue(queue: RunQueue): boolean {
  return queue.workers.length > 0 || queue.entries.some((entry) => entry.state !== 'finished');
}

/**
 * The runs the queue's workers hold, as a key that changes when one starts or stops being
 * held: the runs list reads the runs again then, so a worker's new run shows up at once.
 */
export function heldRunsKey(queue: RunQueue): string {
  return queue.entries
    .filter((entry) => entry.state === 'claimed' && entry.run_id !== null)
    .map((entry) => entry.run_id)
    .sort()
    .join(' ');
}

/** How many rows stand where, for the section's heading: `1 claimed, 2 queued`. */
export function queueSummary(rows: readonly QueueRow[]): string {
  const counts = (['claimed', 'lost', 'queued'] as const)
    .map((state) => [state, rows.filter((row) => row.state === state).length] as const)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${count} ${state === 'lost' ? 'worker lost' : state}`);
  return counts.length === 0 ? 'empty' : counts.join(', ');
}
