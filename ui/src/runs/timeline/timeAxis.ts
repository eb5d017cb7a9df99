/** A time window on the axis, in ms since the run's start. */
export interface TimeWindow {
  start: number;
  end: number;
}

/** One labelled tick on the time axis. */
export interface AxisTick {
  /** ms since the run's start. */
  t: number;
  label: string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Tick steps people read easily, smallest first. */
const STEPS: readonly number[] = [
  1, 2, 5, 10, 20, 50, 100, 200, 500,
  SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND,
  MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
  HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY,
];

/** The smallest readable step that keeps ticks at least `minSpacingPx` apart. */
export function tickStep(windowMs: number, widthPx: number, minSpacingPx = 80): number {
  if (!(windowMs > 0) || !(widthPx > 0)) return SECOND;
  const pxPerMs = widthPx / windowMs;
  for (const step of STEPS) if (step * pxPerMs >= minSpacingPx) return step;
  let step = DAY;
  while (step * pxPerMs < minSpacingPx) step *= 2;
  return step;
}

/** Decimal places of seconds a step needs: 500 ms → 1, 20 ms → 2, 1 s → 0. */
export function stepDecimals(step: number): number {
  if (step >= SECOND) return 0;
  if (step >= 100) return 1;
  if (step >= 10) return 2;
  return 3;
}

/** Ticks at round multiples of a readable step inside the window, labelled `0s`, `1.5s`, `2m 10s`. */
export function axisTicks(window: TimeWindow, widthPx: number, minSpacingPx = 80): { step: number; ticks: AxisTick[] } {
  const step = tickStep(window.end - window.start, widthPx, minSpacingPx);
  const decimals = stepDecimals(step);
  const ticks: AxisTick[] = [];
  const first = Math.ceil(window.start / step);
  const last = Math.floor(window.end / step);
  for (let k = first; k <= last; k += 1) {
    const t = k * step;
    ticks.push({ t, label: formatOffset(t, decimals) });
  }
  return { step, ticks };
}

function trimmed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return decimals > 0 ? text.replace(/\.?0+$/, '') : text;
}

/**
 * A point in time since the run's start: `0s`, `1.5s`, `2m 10s`, `1h 5m`. Seconds keep up
 * to `decimals` places (trailing zeros dropped).
 */
export function formatOffset(ms: number, decimals = 0): string {
  if (ms < 0) return `-${formatOffset(-ms, decimals)}`;
  const unit = 10 ** (3 - decimals);
  const rounded = Math.round(ms / unit) * unit;
  if (rounded < MINUTE) return `${trimmed(rounded / SECOND, decimals)}s`;
  const hours = Math.floor(rounded / HOUR);
  const minutes = Math.floor((rounded % HOUR) / MINUTE);
  const seconds = (rounded % MINUTE) / SECOND;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours}h`);
  if (minutes > 0 || (hours > 0 && seconds > 0)) parts.push(`${minutes}m`);
  if (seconds > 0) parts.push(`${trimmed(seconds, decimals)}s`);
  return parts.join(' ');
}

/** A length of time: `350ms`, `1.2s`, `12s`, `2m 10s`, `1h 5m`. */
export function formatDuration(ms: number): string {
  const rounded = Math.max(0, Math.round(ms));
  if (rounded < SECOND) return `${rounded}ms`;
  if (rounded < 10 * SECOND) return formatOffset(rounded, 1);
  if (rounded < HOUR) return formatOffset(rounded, 0);
  return formatOffset(Math.round(rounded / MINUTE) * MINUTE, 0);
}
