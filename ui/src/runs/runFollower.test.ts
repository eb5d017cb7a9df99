import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventHandlers } from '../api/runEvent';
import type { RunRecord } from '../generated/RunRecord';
import type { Timeline } from '../generated/Timeline';
import { APPLY_BUDGET_MS, type FollowApi, type FollowState, type FollowTimers, PUBLISH_MS, REFRESH_MS, RunFollower } from './runFollower';
import { eventStream } from './runEvents.testdata';
import { prefetchRunOpening } from './runOpeningRead';
import { LONG_HISTORY_EVENTS } from './timelineHistory';

/** Timers on setTimeout and Date.now, which vi.useFakeTimers() replaces; a frame is 16 ms. */
const fakeableTimers: FollowTimers = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  nextFrame(run) {
    return fakeableTimers.after(16, run);
  },
};

type FakeRecord = Pick<RunRecord, 'status' | 'last_seq'> & Partial<Pick<RunRecord, 'event_count'>>;

/**
 * An API whose run loads count themselves and whose event stream the test drives; the record
 * it loads is `record` (a running run no event of which the index has read, by default).
 */
function fakeApi(record: FakeRecord = { status: 'running', last_seq: 0 }) {
  let handlers: EventHandlers | null = null;
  const followedAfter: number[] = [];
  const loads = { count: 0 };
  const api: FollowApi = {
    getRun: () => {
      loads.count += 1;
      return Promise.resolve({ id: 'R1', ...record } as unknown as RunRecord);
    },
    runTimeline: () => Promise.resolve({ stages: [] } as unknown as Timeline),
    followEvents: (req, h) => {
      followedAfter.push(req.after_seq);
      handlers = h;
      return () => {
        handlers = null;
      };
    },
  };
  const stream = () => {
    if (handlers === null) throw new Error('not following');
    return handlers;
  };
  return { api, loads, stream, followedAfter, following: () => handlers !== null };
}

function follower(record?: FakeRecord) {
  const fake = fakeApi(record);
  const published: FollowState[] = [];
  const f = new RunFollower(fake.api, 'R1', fakeableTimers, (s) => published.push(s));
  return { ...fake, f, published };
}

describe('RunFollower', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 1));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('applies the events of one frame together and publishes at most every PUBLISH_MS', () => {
    const { f, stream } = follower();
    const { events, add } = eventStream();
    f.follow();
    add('stage.started', 'a');
    add('stage.completed', 'a');
    for (const e of events) stream().onEvent(e);
    expect(f.current().progress.seq).toBe(0);
    vi.advanceTimersByTime(16);
    expect(f.current().progress.seq).toBe(2);
    expect(f.current().progress.nodes.get('a')?.status).toBe('succeeded');

    // Another event right after: held until PUBLISH_MS passed since the last publish.
    stream().onEvent(add('stage.started', 'b'));
    vi.advanceTimersByTime(16);
    expect(f.current().progress.seq).toBe(2);
    vi.advanceTimersByTime(PUBLISH_MS);
    expect(f.current().progress.seq).toBe(3);
    expect(f.current().progress.current).toBe('b');
  });

  it('reloads record and timeline at most once per REFRESH_MS while events change them', async () => {
    const { f, stream, loads } = follower();
    const { add } = eventStream();
    f.follow();
    stream().onEvent(add('stage.started', 'a'));
    // The frame applies it; the refresh it asks for runs right after.
    await vi.advanceTimersByTimeAsync(17);
    expect(loads.count).toBe(1);
    for (let i = 0; i < 5; i += 1) {
      stream().onEvent(add('stage.retrying', 'a'));
      await vi.advanceTimersByTimeAsync(200);
    }
    expect(loads.count).toBe(2);
    expect(f.current().record).not.toBeNull();
    expect(f.current().shapeVersion).toBe(2);
  });

  it('folds output into transcripts without keeping it, and counts checkpoints', () => {
    const { f, stream } = follower();
    const { add } = eventStream();
    f.follow();
    const before = f.current();
    stream().onEvent(add('stage.started', 'a'));
    stream().onEvent(add('command.output', 'a', { text: 'hello\n' }));
    stream().onEvent(add('checkpoint.saved', 'a'));
    vi.advanceTimersByTime(16);
    const after = f.current();
    expect(f.events.map((e) => e.event)).toEqual(['stage.started', 'checkpoint.saved']);
    expect(after.transcriptVersion).toBe(before.transcriptVersion + 1);
    expect(after.checkpointVersion).toBe(before.checkpointVersion + 1);
    expect(after.artifactVersion).toBe(before.artifactVersion);
    expect(f.transcripts.get('a', 1)?.items).toEqual([{ kind: 'text', stream: 'stdout', text: 'hello\n' }]);
  });

  it('applies what is pending when the stream ends, then loads once more', async () => {
    const { f, stream, loads } = follower();
    const { add } = eventStream();
    f.follow();
    stream().onEvent(add('warning', undefined));
    stream().onEvent(add('run.completed', undefined));
    stream().onEnd?.();
    expect(f.current().ended).toBe(true);
    expect(f.current().progress.runState).toBe('completed');
    await vi.advanceTimersByTimeAsync(0);
    expect(loads.count).toBe(1);
  });

  it('replays the history of a stopped run without reloading what the loaded timeline holds', async () => {
    const { f, stream, loads } = follower({ status: 'success', last_seq: 5 });
    const { events, add } = eventStream();
    f.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(loads.count).toBe(1);
    f.follow();
    add('run.started', undefined);
    add('stage.started', 'a');
    add('stage.completed', 'a');
    add('checkpoint.saved', 'a');
    add('run.completed', undefined);
    for (const e of events) {
      stream().onEvent(e);
      await vi.advanceTimersByTimeAsync(REFRESH_MS);
    }
    stream().onEnd?.();
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(f.current().progress.runState).toBe('completed');
    expect(f.current().checkpointVersion).toBeGreaterThan(1);
    expect(loads.count).toBe(1);
  });

  it('reloads once the history of a running run is replayed, and for every newer event', async () => {
    const { f, stream, loads } = follower({ status: 'running', last_seq: 2 });
    const { add } = eventStream();
    f.load();
    await vi.advanceTimersByTimeAsync(0);
    f.follow();
    stream().onEvent(add('stage.started', 'a'));
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads.count).toBe(1);
    // The last event the load covered: the record and the timeline may have been read apart.
    stream().onEvent(add('stage.completed', 'a'));
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads.count).toBe(2);
    stream().onEvent(add('stage.started', 'b'));
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads.count).toBe(3);
  });

  it('applies a long backlog a budget per frame, publishing as it goes', () => {
    // A clock that moves on 1 ms each time it is read: applying 256 events "takes" 1 ms.
    let clock = 0;
    const frames: (() => void)[] = [];
    const timers: FollowTimers = {
      now: () => (clock += 1),
      after: () => () => undefined,
      nextFrame: (run) => {
        frames.push(run);
        return () => undefined;
      },
    };
    const fake = fakeApi();
    const f = new RunFollower(fake.api, 'R1', timers, () => undefined);
    const { events, add } = eventStream();
    f.follow();
    for (let i = 0; i < 5000; i += 1) add('warning', undefined);
    for (const e of events) fake.stream().onEvent(e);
    const runFrame = () => {
      clock += 16;
      frames.shift()?.();
    };
    runFrame();
    const first = f.current().progress.seq;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(256 * (APPLY_BUDGET_MS + 1));
    for (let i = 0; i < 20 && frames.length > 0; i += 1) runFrame();
    expect(f.current().progress.seq).toBe(5000);
    expect(f.events).toHaveLength(5000);
  });

  it('stops: no timer fires and a load answered later is ignored', async () => {
    const { f, stream, following, published } = follower();
    const { add } = eventStream();
    f.follow();
    f.load();
    stream().onEvent(add('stage.started', 'a'));
    f.dispose();
    expect(following()).toBe(false);
    const count = published.length;
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(published.length).toBe(count);
    expect(f.current().record).toBeNull();
  });

  it('holding events back forgets them until followed again', () => {
    const { f, stream } = follower();
    const { add } = eventStream();
    f.follow();
    stream().onEvent(add('stage.started', 'a'));
    vi.advanceTimersByTime(16);
    f.reset();
    expect(f.events).toEqual([]);
    expect(f.current().progress.seq).toBe(0);
    expect(f.current().ended).toBe(false);
  });

  it('follows a long run from its last event, every other run from the start', async () => {
    // (The record's counts are a long run's; its seqs are kept small.)
    const long = follower({ status: 'running', last_seq: 3, event_count: LONG_HISTORY_EVENTS + 1 });
    long.f.load();
    await vi.advanceTimersByTimeAsync(0);
    long.f.follow();
    expect(long.followedAfter).toEqual([3]);
    expect(long.f.current().tailFrom).toBe(3);
    // The tail's events are applied as usual.
    const { add } = eventStream();
    for (let i = 0; i < 3; i += 1) add('warning', undefined);
    long.stream().onEvent(add('stage.started', 'a'));
    await vi.advanceTimersByTimeAsync(PUBLISH_MS + 16);
    expect(long.f.current().progress.nodes.get('a')?.status).toBe('running');
    expect(long.f.events.map((e) => e.seq)).toEqual([4]);

    const short = follower({ status: 'success', last_seq: 40, event_count: LONG_HISTORY_EVENTS });
    short.f.load();
    await vi.advanceTimersByTimeAsync(0);
    short.f.follow();
    expect(short.followedAfter).toEqual([0]);
    expect(short.f.current().tailFrom).toBe(0);
  });

  it("knows a long run's tail from its first load, and keeps it while the events are followed", async () => {
    const record: FakeRecord = { status: 'running', last_seq: 3, event_count: LONG_HISTORY_EVENTS + 1 };
    const long = follower(record);
    long.f.load();
    await vi.advanceTimersByTimeAsync(0);
    // Before any event is followed: the screen reads the history from this first timeline.
    expect(long.following()).toBe(false);
    expect(long.f.current().tailFrom).toBe(3);
    long.f.follow();
    expect(long.followedAfter).toEqual([3]);
    // A reload while following (the run went on) leaves the tail where the stream started.
    record.last_seq = 9;
    record.event_count = LONG_HISTORY_EVENTS + 7;
    long.f.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(long.f.current().record?.last_seq).toBe(9);
    expect(long.f.current().tailFrom).toBe(3);
    // Also once the stream has ended (its events are still those after 3).
    long.stream().onEnd?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(long.f.current().ended).toBe(true);
    expect(long.f.current().tailFrom).toBe(3);
    // Followed afresh (after a rollback or resume), from the newer record's last event.
    long.f.follow();
    expect(long.followedAfter).toEqual([3, 9]);
    expect(long.f.current().tailFrom).toBe(9);
  });

  it('takes over the read started when the app opened on the run, for its first load only', async () => {
    const { f, api, loads } = follower({ status: 'success', last_seq: 7 });
    prefetchRunOpening(api, 'R1');
    expect(loads.count).toBe(1);
    f.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(loads.count).toBe(1);
    expect(f.current().record?.last_seq).toBe(7);
    f.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(loads.count).toBe(2);
  });
});
