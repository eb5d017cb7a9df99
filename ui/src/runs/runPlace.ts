import type { RunQueue } from '../generated/RunQueue';
import { workerRows } from './queue/queueView';

/**
 * Where the Start-run dialog's run runs: `here` (this machine, or the server the page came
 * from) or on a `worker` of the run queue, which runs it in a fresh clone of the team's
 * remote.
 */
export type RunPlace = 'here' | 'worker';

/**
 * How many of the queue's workers are alive: heard from lately and not holding an entry
 * whose lease ran out (as the runs list shows them). 0 when the queue could not be read.
 */
export function aliveWorkers(queue: RunQueue | null): number {
  if (queue === null) return 0;
  return workerRows(queue).filter((worker) => worker.health === 'alive').length;
}

/**
 * Whether the dialog offers to queue the run for a worker: only while some worker is alive
 * to take it (an entry nobody takes would only wait).
 */
export function offersQueue(queue: RunQueue | null): boolean {
  return aliveWorkers(queue) > 0;
}

/** What the queue choice says of the workers: `1 worker alive`, `3 workers alive`. */
export function aliveWorkersNote(alive: number): string {
  return `${alive} ${alive === 1 ? 'worker' : 'workers'} alive`;
}

/**
 * The work folder the run is asked for: the one typed (none: the workflow's folder) for a
 * run here; none for a worker, which runs in a fresh clone of the team's remote (so the
 * workflow's folder only places the trust check).
 */
export function workDirFor(place: RunPlace, typed: string): string | null {
  if (place === 'worker') return null;
  const trimmed = typed.trim();
  return trimmed === '' ? null : trimmed;
}

/** The dialog's primary button: what it does, and `busy` while it does it. */
export function submitLabel(place: RunPlace, { busy, unsaved }: { busy: boolean; unsaved: boolean }): string {
  if (place === 'worker') return busy ? 'Queuing…' : unsaved ? 'Save and queue' : 'Queue run';
  return busy ? 'Starting…' : unsaved ? 'Save and start' : 'Start run';
}

/** Why nothing happened when the editor's changes could not be saved first. */
export function notSavedMessage(place: RunPlace): string {
  return `The workflow could not be saved, so the run was not ${place === 'worker' ? 'queued' : 'started'}.`;
}

/** The note shown while the editor holds changes the file does not have yet. */
export function unsavedNote(place: RunPlace): string {
  return place === 'worker'
    ? 'The editor has unsaved changes; they are saved before the run is queued, but a worker runs the workflow as it is committed on the team’s remote.'
    : 'The editor has unsaved changes; they are saved before the run starts.';
}
