import { describe, expect, it } from 'vitest';
import { progressOf } from './runProgress';
import { NOTICE_FRESH_MS, runNotice } from './runNotice';
import { eventStream } from './runEvents.testdata';

describe('run notices', () => {
  it('tells when a run waits for a person and when it ends, once', () => {
    const { events, add } = eventStream();
    add('stage.started', 'review', { visit: 1 });
    const before = progressOf(events);
    add('interview.started', 'review', { question: 'Ship?' });
    const waiting = progressOf(events);
    const now = waiting.lastEventAt + 1000;
    expect(runNotice('Flow', before, waiting, now)?.title).toBe('Flow is waiting for you');
    expect(runNotice('Flow', waiting, waiting, now)).toBeNull();
    add('interview.answered', 'review', {});
    add('stage.completed', 'review', { status: 'success' });
    add('run.completed', undefined, {});
    const ended = progressOf(events);
    expect(runNotice('Flow', waiting, ended, ended.lastEventAt + 1000)?.title).toBe('Flow finished');
    // Opening a run that finished long ago replays its history: no notice.
    expect(runNotice('Flow', waiting, ended, ended.lastEventAt + NOTICE_FRESH_MS + 1)).toBeNull();
  });

  it('names a failed run', () => {
    const { events, add } = eventStream();
    add('stage.started', 'a', { visit: 1 });
    const before = progressOf(events);
    add('run.failed', undefined, { reason: 'x' });
    const failed = progressOf(events);
    expect(runNotice('Flow', before, failed, failed.lastEventAt)?.title).toBe('Flow failed');
  });
});
