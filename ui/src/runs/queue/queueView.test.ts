import { describe, expect, it } from 'vitest';
import type { QueuedEntry } from '../../generated/QueuedEntry';
import type { RunQueue } from '../../generated/RunQueue';
import type { WorkerRecord } from '../../generated/WorkerRecord';
import {
  WORKER_STALE_MS,
  cancelOf,
  formatAgo,
  formatTakeovers,
  heldRunsKey,
  leaseRanOut,
  queueRow,
  queueRows,
  queueSummary,
  showsQueue,
  workerRow,
  workerRows,
} from './queueView';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

function entry(fields: Partial<QueuedEntry> = {}): QueuedEntry {
  return {
    id: '01QUEUED',
    request: '{}',
    state: 'queued',
    enqueued_ms: NOW - 12_000,
    worker: null,
    lease_until_ms: null,
    heartbeat_ms: null,
    claims: 0,
    run_id: null,
    finished_ms: null,
    outcome: null,
    run: {
      workflow: 'flows/nightly.dot',
      goal: null,
      inputs: {},
      labels: {},
      dry_run: false,
      max_cost_usd: null,
      max_tokens: null,
    },
    ...fields,
  };
}

/** An entry `worker` holds, heard from `heartbeatAgo` ms ago, its lease ending `leaseLeft` ms from now. */
function held(worker: string, heartbeatAgo: number, leaseLeft: number, fields: Partial<QueuedEntry> = {}): QueuedEntry {
  return entry({
    state: 'claimed',
    worker,
    heartbeat_ms: NOW - heartbeatAgo,
    lease_until_ms: NOW + leaseLeft,
    claims: 1,
    ...fields,
  });
}

function worker(fields: Partial<WorkerRecord> = {}): WorkerRecord {
  return {
    name: 'ui-worker',
    remote: '/srv/git/team.git',
    started_ms: NOW - 5 * 60_000,
    seen_ms: NOW - 3_000,
    entry: null,
    ...fields,
  };
}

function queue(entries: QueuedEntry[], workers: WorkerRecord[] = []): RunQueue {
  return { entries, workers, now_ms: NOW };
}

describe('formatAgo', () => {
  it('says how long ago at every scale', () => {
    expect(formatAgo(400)).toBe('just now');
    expect(formatAgo(4_200)).toBe('4 s ago');
    expect(formatAgo(59_999)).toBe('59 s ago');
    expect(formatAgo(3 * 60_000 + 10_000)).toBe('3 min ago');
    expect(formatAgo(2 * 3_600_000 + 5)).toBe('2 h ago');
    expect(formatAgo(5 * 86_400_000)).toBe('5 d ago');
  });

  it('says just now when another machine’s clock is ahead', () => {
    expect(formatAgo(-2_000)).toBe('just now');
    expect(formatAgo(Number.NaN)).toBe('just now');
  });
});

describe('formatTakeovers', () => {
  it('says nothing for an entry claimed at most once', () => {
    expect(formatTakeovers(0)).toBeNull();
    expect(formatTakeovers(1)).toBeNull();
  });

  it('counts the claims after the first as takeovers', () => {
    expect(formatTakeovers(2)).toBe('taken over once');
    expect(formatTakeovers(4)).toBe('taken over 3 times');
  });
});

describe('queue rows', () => {
  it('lists the waiting and held entries, not the finished ones, oldest first', () => {
    const rows = queueRows(
      queue([
        entry({ id: 'A', enqueued_ms: NOW - 60_000, state: 'finished', outcome: 'success', finished_ms: NOW - 1_000 }),
        held('w1', 2_000, 28_000, { id: 'B', enqueued_ms: NOW - 50_000 }),
        entry({ id: 'C', enqueued_ms: NOW - 40_000 }),
      ]),
    );
    expect(rows.map((row) => [row.id, row.state])).toEqual([
      ['B', 'claimed'],
      ['C', 'queued'],
    ]);
  });

  it('shows a waiting entry with its workflow, goal, labels and age, and no worker', () => {
    const row = queueRow(
      entry({
        run: {
          workflow: 'flows/nightly.dot',
          goal: 'Ship it',
          inputs: { name: 'x' },
          labels: { team: 'core', ci: 'yes' },
          dry_run: true,
          max_cost_usd: null,
          max_tokens: null,
        },
      }),
      NOW,
    );
    expect(row).toMatchObject({
      state: 'queued',
      stateLabel: 'Queued',
      workflow: 'flows/nightly.dot',
      goal: 'Ship it',
      labels: ['team=core', 'ci=yes'],
      dryRun: true,
      queuedAgo: '12 s ago',
      queuedAt: '2026-11-28T11:59:48.000Z',
      worker: null,
      heartbeat: null,
      lostNote: null,
      takeovers: null,
      runId: null,
      cancel: { kind: 'entry', label: 'Cancel' },
    });
  });

  it('shows a held entry with its worker, heartbeat age and run', () => {
    const row = queueRow(held('ui-worker', 4_000, 26_000, { run_id: 'RUN1' }), NOW);
    expect(row).toMatchObject({
      state: 'claimed',
      stateLabel: 'Claimed',
      worker: 'ui-worker',
      heartbeat: 'heartbeat 4 s ago',
      lostNote: null,
      runId: 'RUN1',
      cancel: { kind: 'run', label: 'Cancel run' },
    });
  });

  it('offers no Cancel while a worker sets an entry’s run up', () => {
    expect(queueRow(held('ui-worker', 1_000, 29_000), NOW).cancel).toBeNull();
    expect(cancelOf('lost', null)).toBeNull();
    expect(cancelOf('lost', 'RUN3')?.title).toContain('RUN3');
  });

  it('marks an entry whose lease ran out while claimed as lost, naming its last worker', () => {
    const lost = held('gone', 45_000, -15_000, { run_id: 'RUN2', claims: 2 });
    expect(leaseRanOut(lost, NOW)).toBe(true);
    expect(queueRow(lost, NOW)).toMatchObject({
      state: 'lost',
      stateLabel: 'Worker lost',
      worker: 'gone',
      heartbeat: 'last heartbeat 45 s ago',
      lostNote: 'worker lost — waiting for another worker',
      takeovers: 'taken over once',
      runId: 'RUN2',
    });
  });

  it('measures the lease against the server’s time, not the viewer’s', () => {
    const claimed = held('w', 1_000, 5_000);
    expect(leaseRanOut(claimed, NOW)).toBe(false);
    expect(leaseRanOut(claimed, NOW + 6_000)).toBe(true);
    expect(leaseRanOut(entry(), NOW + 6_000)).toBe(false);
  });

  it('says so when the entry asks for a run this version cannot read', () => {
    expect(queueRow(entry({ run: null }), NOW)).toMatchObject({
      workflow: 'a run this version of Heddle cannot read',
      goal: null,
      labels: [],
      dryRun: false,
    });
  });
});

describe('queueSummary', () => {
  it('counts the rows by where they stand', () => {
    const rows = queueRows(queue([held('w', 1_000, 29_000), held('x', 60_000, -30_000), entry(), entry({ id: 'Q2' })]));
    expect(queueSummary(rows)).toBe('1 claimed, 1 worker lost, 2 queued');
    expect(queueSummary([])).toBe('empty');
  });
});

describe('worker rows', () => {
  it('shows an idle worker heard from recently as alive', () => {
    expect(workerRow(worker(), [], NOW)).toEqual({
      name: 'ui-worker',
      remote: '/srv/git/team.git',
      health: 'alive',
      seen: 'seen 3 s ago',
      startedAgo: 'started 5 min ago',
      startedAt: '2026-11-28T11:55:00.000Z',
      work: null,
    });
  });

  it('marks a worker not heard from for three leases as stale', () => {
    expect(workerRow(worker({ seen_ms: NOW - WORKER_STALE_MS }), [], NOW).health).toBe('alive');
    const stale = workerRow(worker({ seen_ms: NOW - WORKER_STALE_MS - 1_000 }), [], NOW);
    expect(stale).toMatchObject({ health: 'stale', seen: 'stale, seen 1 min ago' });
  });

  it('marks a worker whose held entry’s lease ran out as lost, before it goes stale', () => {
    const entries = [held('ui-worker', 35_000, -5_000, { id: 'E1' })];
    const lost = workerRow(worker({ entry: 'E1', seen_ms: NOW - 35_000 }), entries, NOW);
    expect(lost).toMatchObject({ health: 'lost', seen: 'lost its lease, seen 35 s ago' });
  });

  it('does not mark a worker lost for an entry another worker took over', () => {
    const entries = [held('next', 1_000, 29_000, { id: 'E1', claims: 2 })];
    const dead = workerRow(worker({ name: 'gone', entry: 'E1', seen_ms: NOW - 40_000 }), entries, NOW);
    expect(dead.health).toBe('alive');
    expect(workerRow(worker({ name: 'gone', entry: 'E1', seen_ms: NOW - 100_000 }), entries, NOW).health).toBe('stale');
  });

  it('names the entry a worker works on, with its workflow and run from the queue', () => {
    const entries = [held('ui-worker', 1_000, 29_000, { id: 'E1', run_id: 'RUN1' })];
    const rows = workerRows(queue(entries, [worker({ entry: 'E1' }), worker({ name: 'other', entry: 'E9' })]));
    expect(rows.map((row) => row.work)).toEqual([
      { entryId: 'E1', workflow: 'flows/nightly.dot', runId: 'RUN1' },
      { entryId: 'E9', workflow: null, runId: null },
    ]);
  });
});

describe('whether the queue shows', () => {
  it('hides it when nothing waits or is held and no worker reported itself', () => {
    expect(showsQueue(queue([]))).toBe(false);
    expect(showsQueue(queue([entry({ state: 'finished' })]))).toBe(false);
  });

  it('shows it for an unfinished entry or a worker', () => {
    expect(showsQueue(queue([entry()]))).toBe(true);
    expect(showsQueue(queue([], [worker()]))).toBe(true);
  });
});

describe('heldRunsKey', () => {
  it('changes when a worker starts or stops holding a run, not with heartbeats', () => {
    const before = heldRunsKey(queue([held('w', 1_000, 29_000), entry({ id: 'Q' })]));
    const started = queue([held('w', 1_000, 29_000, { run_id: 'RUN1' }), entry({ id: 'Q' })]);
    const beat = queue([held('w', 0, 30_000, { run_id: 'RUN1' }), entry({ id: 'Q' })]);
    const finished = queue([entry({ state: 'finished', run_id: 'RUN1' }), entry({ id: 'Q' })]);
    expect(before).toBe('');
    expect(heldRunsKey(started)).toBe('RUN1');
    expect(heldRunsKey(beat)).toBe(heldRunsKey(started));
    expect(heldRunsKey(finished)).toBe('');
  });
});
