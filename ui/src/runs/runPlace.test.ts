import { describe, expect, it } from 'vitest';
import type { QueuedEntry } from '../generated/QueuedEntry';
import type { RunQueue } from '../generated/RunQueue';
import type { WorkerRecord } from '../generated/WorkerRecord';
import { WORKER_STALE_MS } from './queue/queueView';
import { aliveWorkers, aliveWorkersNote, notSavedMessage, offersQueue, submitLabel, unsavedNote, workDirFor } from './runPlace';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

function worker(name: string, seenAgo: number, entry: string | null = null): WorkerRecord {
  return { name, remote: '/srv/git/team.git', started_ms: NOW - 600_000, seen_ms: NOW - seenAgo, entry };
}

/** An entry `holder` holds, its lease ending `leaseLeft` ms from now (negative: it ran out). */
function heldBy(holder: string, leaseLeft: number): QueuedEntry {
  return {
    id: `entry-of-${holder}`,
    request: '{}',
    state: 'claimed',
    enqueued_ms: NOW - 60_000,
    worker: holder,
    lease_until_ms: NOW + leaseLeft,
    heartbeat_ms: NOW - 40_000,
    claims: 1,
    run_id: null,
    finished_ms: null,
    outcome: null,
    run: null,
  };
}

const queue = (workers: WorkerRecord[], entries: QueuedEntry[] = []): RunQueue => ({ entries, workers, now_ms: NOW });

describe('offering to queue a run for a worker', () => {
  it('is not offered when the queue could not be read or no worker reported itself', () => {
    expect(offersQueue(null)).toBe(false);
    expect(offersQueue(queue([]))).toBe(false);
  });

  it('is not offered when every worker is stale or lost its lease', () => {
    const stale = worker('old', WORKER_STALE_MS + 1000);
    const lost = worker('cut-off', 5000, 'entry-of-cut-off');
    expect(offersQueue(queue([stale, lost], [heldBy('cut-off', -1000)]))).toBe(false);
  });

  it('is offered when one worker is alive, busy or idle, and counts the alive ones', () => {
    const stale = worker('old', WORKER_STALE_MS + 1000);
    const busy = worker('busy', 2000, 'entry-of-busy');
    const idle = worker('idle', 1000);
    expect(offersQueue(queue([stale, idle]))).toBe(true);
    expect(aliveWorkers(queue([stale, busy, idle], [heldBy('busy', 20_000)]))).toBe(2);
    expect(aliveWorkers(null)).toBe(0);
  });

  it('says how many workers are alive', () => {
    expect(aliveWorkersNote(1)).toBe('1 worker alive');
    expect(aliveWorkersNote(3)).toBe('3 workers alive');
  });
});

describe('what the dialog asks for, here or on a worker', () => {
  it('sends the typed work folder only for a run here', () => {
    expect(workDirFor('here', '  /srv/work ')).toBe('/srv/work');
    expect(workDirFor('here', '  ')).toBeNull();
    expect(workDirFor('worker', '/srv/work')).toBeNull();
  });

  it('names the button after what it does', () => {
    expect(submitLabel('here', { busy: false, unsaved: false })).toBe('Start run');
    expect(submitLabel('here', { busy: false, unsaved: true })).toBe('Save and start');
    expect(submitLabel('here', { busy: true, unsaved: true })).toBe('Starting…');
    expect(submitLabel('worker', { busy: false, unsaved: false })).toBe('Queue run');
    expect(submitLabel('worker', { busy: false, unsaved: true })).toBe('Save and queue');
    expect(submitLabel('worker', { busy: true, unsaved: false })).toBe('Queuing…');
  });

  it('says what saving first means for each place', () => {
    expect(notSavedMessage('here')).toBe('The workflow could not be saved, so the run was not started.');
    expect(notSavedMessage('worker')).toBe('The workflow could not be saved, so the run was not queued.');
    expect(unsavedNote('here')).toBe('The editor has unsaved changes; they are saved before the run starts.');
    expect(unsavedNote('worker')).toMatch(/committed on the team’s remote\.$/);
  });
});
