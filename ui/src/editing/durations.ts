/**
 * Durations as the dialect writes them (`250ms`, `30s`, `15m`, `2h`, `1d`, and sums written
 * together such as `1h30m`), checked the way `crates/heddle-workflow/src/duration.rs` parses
 * them: whole numbers, lowercase units, surrounding spaces ignored, at most 2^64-1 ms.
 */

const UNIT_MILLIS: Readonly<Record<string, bigint>> = {
  ms: 1n,
  s: 1_000n,
  m: 60_000n,
  h: 3_600_000n,
  d: 86_400_000n,
};

const U64_MAX = 2n ** 64n - 1n;

/** Milliseconds, or why the text is not a duration. */
export type ParsedDuration = { ok: true; millis: number } | { ok: false; message: string };

function failed(message: string): ParsedDuration {
  return { ok: false, message };
}

export function parseDuration(text: string): ParsedDuration {
  const trimmed = text.trim();
  if (trimmed === '') return failed('empty duration');
  const malformed = `\`${trimmed}\` is not a duration; write a whole number and a unit, e.g. \`30s\``;
  let total = 0n;
  let i = 0;
  while (i < trimmed.length) {
    const digits = /^[0-9]*/.exec(trimmed.slice(i))?.[0] ?? '';
    if (digits === '') return failed(malformed);
    i += digits.length;
    const unit = /^[A-Za-z]*/.exec(trimmed.slice(i))?.[0] ?? '';
    if (unit === '') {
      return i === trimmed.length
        ? failed(`\`${trimmed}\` has no unit; write e.g. \`${trimmed}s\` or \`${trimmed}ms\``)
        : failed(malformed);
    }
    i += unit.length;
    const factor = Object.hasOwn(UNIT_MILLIS, unit) ? UNIT_MILLIS[unit] : undefined;
    if (factor === undefined) {
      return failed(`unknown duration unit \`${unit}\` in \`${trimmed}\`; use ms, s, m, h or d`);
    }
    total += BigInt(digits) * factor;
    if (total > U64_MAX) return failed(`duration \`${trimmed}\` is too large`);
  }
  return { ok: true, millis: Number(total) };
}

/**
 * A bare whole number (`900`, ` 300 `) as seconds, the way Fabro reads a duration without a
 * unit (the Rust side's `bare_seconds`); null for anything else.
 */
export function bareSeconds(text: string): string | null {
  const trimmed = text.trim();
  if (!/^[0-9]+$/.test(trimmed)) return null;
  const seconds = BigInt(trimmed);
  return seconds * 1_000n > U64_MAX ? null : seconds.toString();
}
