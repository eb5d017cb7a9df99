import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { latestAnswer, type Settled } from './latestAnswer';

/** A request whose answer the test releases when it wants. */
function controlledAsk() {
  const pending = new Map<string, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  const asked: string[] = [];
  const ask = (input: string) =>
    new Promise<string>((resolve, reject) => {
      asked.push(input);
      pending.set(input, { resolve, reject });
    });
  const answer = async (input: string, value = `answer to ${input}`) => {
    pending.get(input)?.resolve(value);
    await Promise.resolve();
    await Promise.resolve();
  };
  const fail = async (input: string, error: unknown) => {
    pending.get(input)?.reject(error);
    await Promise.resolve();
    await Promise.resolve();
  };
  return { ask, asked, answer, fail };
}

describe('latestAnswer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks once typing pauses, about the last text only', async () => {
    const { ask, asked, answer } = controlledAsk();
    const answers: Array<[string, Settled<string>]> = [];
    const live = latestAnswer({ ask, onAnswer: (i, a) => answers.push([i, a]), delayMs: 150 });
    live.request('o');
    vi.advanceTimersByTime(100);
    live.request('ou');
    vi.advanceTimersByTime(100);
    live.request('out');
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(150);
    expect(asked).toEqual(['out']);
    await answer('out');
    expect(answers).toEqual([['out', { ok: true, value: 'answer to out' }]]);
  });

  it('drops an answer that arrives after a newer request', async () => {
    const { ask, asked, answer } = controlledAsk();
    const answers: string[] = [];
    const live = latestAnswer({ ask, onAnswer: (i) => answers.push(i), delayMs: 150 });
    live.request('a');
    vi.advanceTimersByTime(150);
    live.request('ab');
    vi.advanceTimersByTime(150);
    expect(asked).toEqual(['a', 'ab']);
    await answer('ab');
    await answer('a'); // late, and stale
    expect(answers).toEqual(['ab']);
  });

  it('drops an answer once a newer request is merely waiting for its delay', async () => {
    const { ask, answer } = controlledAsk();
    const answers: string[] = [];
    const live = latestAnswer({ ask, onAnswer: (i) => answers.push(i), delayMs: 150 });
    live.request('a');
    vi.advanceTimersByTime(150);
    live.request('ab');
    await answer('a');
    expect(answers).toEqual([]);
  });

  it('passes on failures as answers', async () => {
    const { ask, fail } = controlledAsk();
    const answers: Array<Settled<string>> = [];
    const live = latestAnswer({ ask, onAnswer: (_, a) => answers.push(a), delayMs: 10 });
    live.request('x');
    vi.advanceTimersByTime(10);
    await fail('x', 'offline');
    expect(answers).toEqual([{ ok: false, error: 'offline' }]);
  });

  it('asks right away with now(), replacing a waiting request', async () => {
    const { ask, asked, answer } = controlledAsk();
    const answers: string[] = [];
    const live = latestAnswer({ ask, onAnswer: (i) => answers.push(i), delayMs: 150 });
    live.request('typed');
    const settled = live.now('typed!');
    expect(asked).toEqual(['typed!']);
    await answer('typed!', 'ok');
    await expect(settled).resolves.toEqual({ ok: true, value: 'ok' });
    vi.advanceTimersByTime(500);
    expect(asked).toEqual(['typed!']);
    expect(answers).toEqual(['typed!']);
  });

  it('resolves now() with its own answer even when it went stale', async () => {
    const { ask, answer } = controlledAsk();
    const answers: string[] = [];
    const live = latestAnswer({ ask, onAnswer: (i) => answers.push(i), delayMs: 150 });
    const settled = live.now('first');
    live.request('second');
    await answer('first', 'yes');
    await expect(settled).resolves.toEqual({ ok: true, value: 'yes' });
    expect(answers).toEqual([]);
  });

  it('forgets everything on cancel()', async () => {
    const { ask, asked, answer } = controlledAsk();
    const answers: string[] = [];
    const live = latestAnswer({ ask, onAnswer: (i) => answers.push(i), delayMs: 150 });
    live.request('a');
    vi.advanceTimersByTime(150);
    live.request('b');
    live.cancel();
    vi.advanceTimersByTime(500);
    await answer('a');
    expect(asked).toEqual(['a']);
    expect(answers).toEqual([]);
  });
});
