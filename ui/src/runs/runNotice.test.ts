import { describe, expect, it } from 'vitest';
import { progressOf } from './runProgress';
import { runNotice } from './runNotice';
import { eventStream } from './runEvents.testdata';

describe('run notices', () => {
  it('tells when a run waits for a person and when it ends, once', () => {
    const { events, add } = eventStream();
    add('stage.started', 'review', { visit: 1 });
    const before = progressOf(events);
    add('interview.started', 'review', { question: 'Ship?' });
    const waiting = progressOf(events);
    expect(runNotice('Flow', before, waiting)?.title).toBe('Flow is waiting for you');
    expect(runNotice('Flow', waiting, waiting)).toBeNull();
    add('interview.answered', 'review', {});
    add('stage.completed', 'review', { status: 'success' });
    add('run.completed', undefined, {});
    expect(runNotice('Flow', waiting, progressOf(events))?.title).toBe('Flow finished');
  });

  it('names a failed run', () => {
    const { events, add } = eventStream();
    add('stage.started', 'a', { visit: 1 });
    const before = progressOf(events);
    add('run.failed', undefined, { reason: 'x' });
    expect(runNotice('Flow', before, progressOf(events))?.title).toBe('Flow failed');
  });
});
