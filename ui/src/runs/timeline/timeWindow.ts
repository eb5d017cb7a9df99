import type { TimeWindow } from './timeAxis';

/** The narrowest window zooming allows, in ms. */
export const MIN_WINDOW_MS = 50;

/** The whole run: from 0 to its span (at least `MIN_WINDOW_MS` wide). */
export function fullWindow(span: number): TimeWindow {
  return { start: 0, end: Math.max(span, MIN_WINDOW_MS) };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** A window of the given width starting near `start`, moved and narrowed to fit in the run. */
function placed(start: number, width: number, span: number): TimeWindow {
  const full = fullWindow(span).end;
  const w = clamp(width, MIN_WINDOW_MS, full);
  const s = clamp(start, 0, full - w);
  return { start: s, end: s + w };
}

/** The window kept inside the run and at least `MIN_WINDOW_MS` wide. */
export function clampWindow(window: TimeWindow, span: number): TimeWindow {
  return placed(window.start, window.end - window.start, span);
}

/**
 * Zooms by `factor` (< 1 zooms in) keeping `focusMs` at the same place on screen; the
 * width stays between `MIN_WINDOW_MS` and the whole run.
 */
export function zoomAround(window: TimeWindow, focusMs: number, factor: number, span: number): TimeWindow {
  const width = window.end - window.start;
  const ratio = width > 0 ? clamp((focusMs - window.start) / width, 0, 1) : 0.5;
  const next = clamp(width * factor, MIN_WINDOW_MS, fullWindow(span).end);
  const focus = window.start + ratio * width;
  return placed(focus - ratio * next, next, span);
}

/** Moves the window by `deltaMs` (later when positive), stopping at the run's ends. */
export function pan(window: TimeWindow, deltaMs: number, span: number): TimeWindow {
  return placed(window.start + deltaMs, window.end - window.start, span);
}

/** The smallest pan that brings `t` into the window (with a margin of `marginRatio` of its width). */
export function reveal(window: TimeWindow, t: number, span: number, marginRatio = 0.05): TimeWindow {
  const margin = (window.end - window.start) * marginRatio;
  if (t < window.start + margin) return pan(window, t - margin - window.start, span);
  if (t > window.end - margin) return pan(window, t + margin - window.end, span);
  return window;
}

/** Whether the window shows the whole run. */
export function isFullWindow(window: TimeWindow, span: number): boolean {
  const full = fullWindow(span);
  return window.start <= full.start && window.end >= full.end;
}

/** `window` widened by `marginRatio` of its width on each side (zooming onto a cluster of bars). */
export function around(window: TimeWindow, marginRatio = 0.1): TimeWindow {
  const margin = Math.max(0, window.end - window.start) * marginRatio;
  return { start: window.start - margin, end: window.end + margin };
}
