import { useCallback, useMemo, useState } from 'react';
import type { TimeWindow } from './timeAxis';
import { around, clampWindow, fullWindow, isFullWindow, pan, reveal, zoomAround } from './timeWindow';

/** The visible part of the time axis and the ways to move it. */
export interface TimelineViewport {
  /** What is visible, in ms since the run's start. */
  visible: TimeWindow;
  /** Whether it shows the whole run (and so follows a running run as it grows). */
  fitted: boolean;
  /** Zooms by `factor` (< 1 zooms in) around `focusMs`, or around the middle. */
  zoomBy(factor: number, focusMs?: number): void;
  /** Pans by `deltaMs`. */
  panBy(deltaMs: number): void;
  /** Pans so `t` is visible. */
  reveal(t: number): void;
  /** Shows the whole run. */
  fit(): void;
  /** Shows `window` (kept inside the run), with a little room on each side. */
  show(window: TimeWindow): void;
}

/** Holds the visible window; fitted until someone zooms or pans, then kept inside the run. */
export function useTimelineViewport(span: number): TimelineViewport {
  const [chosen, setChosen] = useState<TimeWindow | null>(null);
  const visible = useMemo(
    () => (chosen === null ? fullWindow(span) : clampWindow(chosen, span)),
    [chosen, span],
  );

  const update = useCallback(
    (next: (current: TimeWindow) => TimeWindow) => {
      setChosen((previous) => {
        const current = previous === null ? fullWindow(span) : clampWindow(previous, span);
        const moved = next(current);
        return isFullWindow(moved, span) ? null : moved;
      });
    },
    [span],
  );

  const zoomBy = useCallback(
    (factor: number, focusMs?: number) =>
      update((w) => zoomAround(w, focusMs ?? (w.start + w.end) / 2, factor, span)),
    [update, span],
  );
  const panBy = useCallback((deltaMs: number) => update((w) => pan(w, deltaMs, span)), [update, span]);
  const revealAt = useCallback((t: number) => update((w) => reveal(w, t, span)), [update, span]);
  const fit = useCallback(() => setChosen(null), []);
  const show = useCallback((w: TimeWindow) => update(() => around(w)), [update]);

  return { visible, fitted: chosen === null, zoomBy, panBy, reveal: revealAt, fit, show };
}
