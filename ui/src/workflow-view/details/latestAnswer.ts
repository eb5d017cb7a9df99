/**
 * Asking the backend about text as it is typed: requests wait until typing pauses, and only
 * the answer to the latest request is passed on (an answer that arrives after a newer
 * request was made is dropped, however late or early it comes).
 */

/** How a request ended. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** The timer functions used (injectable so tests can drive time). */
export type Timers = {
  set: (run: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clear: (handle: ReturnType<typeof setTimeout>) => void;
};

const REAL_TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle),
};

export interface LatestAnswer<I, R> {
  /** Asks about `input` once `delayMs` pass without another request. */
  request(input: I): void;
  /** Asks about `input` right away; resolves with its own answer, even if a newer request
   * was made meanwhile (which then gets the `onAnswer`). */
  now(input: I): Promise<Settled<R>>;
  /** Drops the pending request and any answer still on its way. */
  cancel(): void;
}

/**
 * Debounced requests through `ask`; `onAnswer` gets each answer that is still the latest,
 * with the input it answers.
 */
export function latestAnswer<I, R>({
  ask,
  onAnswer,
  delayMs,
  timers = REAL_TIMERS,
}: {
  ask: (input: I) => Promise<R>;
  onAnswer: (input: I, answer: Settled<R>) => void;
  delayMs: number;
  timers?: Timers;
}): LatestAnswer<I, R> {
  let latest = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const stopTimer = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
  };

  const run = async (input: I): Promise<Settled<R>> => {
    const request = ++latest;
    let answer: Settled<R>;
    try {
      answer = { ok: true, value: await ask(input) };
    } catch (error) {
      answer = { ok: false, error };
    }
    if (request === latest) onAnswer(input, answer);
    return answer;
  };

  return {
    request(input) {
      stopTimer();
      latest++; // an answer on its way is now stale
      timer = timers.set(() => {
        timer = null;
        void run(input);
      }, delayMs);
    },
    now(input) {
      stopTimer();
      return run(input);
    },
    cancel() {
      stopTimer();
      latest++;
    },
  };
}
