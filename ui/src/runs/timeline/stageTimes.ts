import type { TimelineStage } from '../../generated/TimelineStage';

/** Milliseconds since the epoch, or null when the text is not a date. */
export function parseTime(text: string | null): number | null {
  if (text === null) return null;
  const ms = utcTime(text) ?? Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** The digits of `text` from `from` (exclusive `to`) as a number; NaN if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (what the index writes) read without Date.parse, which
 * costs several times more (a 20,000-stage timeline has 40,000 of them); null for any
 * other form.
 */
function utcTime(text: string): number | null {
  const n = text.length;
  if (n < 20 || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[n - 1] !== 'Z') {
    return null;
  }
  let ms = 0;
  if (n > 20) {
    if (text[19] !== '.' || n === 21) return null;
    const fraction = digits(text, 20, Math.min(n - 1, 23));
    const places = Math.min(n - 1, 23) - 20;
    ms = fraction * 10 ** (3 - places);
    if (n - 1 > 23 && Number.isNaN(digits(text, 23, n - 1))) return null;
  }
  const time = Date.UTC(
    digits(text, 0, 4),
    digits(text, 5, 7) - 1,
    digits(text, 8, 10),
    digits(text, 11, 13),
    digits(text, 14, 16),
    digits(text, 17, 19),
    ms,
  );
  return Number.isNaN(time) ? null : time;
}

/** Each stage's start and end in epoch ms, in the stages' order; NaN when missing or unreadable. */
export interface StageTimes {
  starts: Float64Array;
  ends: Float64Array;
}

const read = new WeakMap<readonly TimelineStage[], StageTimes>();

/**
 * The times of `stages`, read once per list of stages: the timeline's layout and the run's
 * progress both go over every stage's times, and a 20,000-stage run has 40,000 of them.
 * A timeline's stages are never changed in place (a newer timeline is a new list).
 */
export function stageTimes(stages: readonly TimelineStage[]): StageTimes {
  const known = read.get(stages);
  if (known !== undefined && known.starts.length === stages.length) return known;
  const starts = new Float64Array(stages.length);
  const ends = new Float64Array(stages.length);
  stages.forEach((stage, i) => {
    starts[i] = parseTime(stage.started_at) ?? Number.NaN;
    ends[i] = parseTime(stage.ended_at) ?? Number.NaN;
  });
  const times = { starts, ends };
  read.set(stages, times);
  return times;
}
