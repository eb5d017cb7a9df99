import { useCallback, useEffect, useMemo, useRef } from 'react';

/** Text changes passed on once typing pauses, and a way to pass on a pending one at once. */
export type DebouncedText = {
  /** Records the latest text; it is passed on after `delayMs` without another change. */
  push: (text: string) => void;
  /** Passes on a pending text now (before a canvas edit, say); resolves once it is taken. */
  flush: () => Promise<void>;
};

/** Calls `take` with the latest text once typing pauses for `delayMs` (and on unmount). */
export function useDebouncedText(take: (text: string) => Promise<unknown>, delayMs: number): DebouncedText {
  const latest = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const taker = useRef(take);
  taker.current = take;

  const flush = useCallback(async () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const text = latest.current;
    latest.current = null;
    if (text !== null) await taker.current(text);
  }, []);

  useEffect(
    () => () => {
      void flush();
    },
    [flush],
  );

  const push = useCallback(
    (text: string) => {
      latest.current = text;
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), delayMs);
    },
    [delayMs, flush],
  );
  return useMemo(() => ({ push, flush }), [push, flush]);
}
