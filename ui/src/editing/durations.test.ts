import { describe, expect, it } from 'vitest';
import { parseDuration } from './durations';

function millis(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.millis;
}

function problem(text: string): string {
  const parsed = parseDuration(text);
  if (parsed.ok) throw new Error(`parsed as ${parsed.millis}`);
  return parsed.message;
}

describe('parseDuration', () => {
  it('reads each unit', () => {
    expect([millis('250ms'), millis('90s'), millis('15m'), millis('2h'), millis('1d')]).toEqual([
      250, 90_000, 900_000, 7_200_000, 86_400_000,
    ]);
  });

  it('adds parts written together and ignores surrounding spaces', () => {
    expect(millis(' 1h30m ')).toBe(5_400_000);
    expect(millis('0ms')).toBe(0);
  });

  it('refuses what the Rust parser refuses, with its messages', () => {
    expect(problem('  ')).toBe('empty duration');
    expect(problem('30')).toContain('has no unit');
    expect(problem('30 s')).toContain('is not a duration');
    expect(problem('1.5h')).toContain('is not a duration');
    expect(problem('-5s')).toContain('is not a duration');
    expect(problem('5S')).toContain('unknown duration unit `S`');
    expect(problem('3w')).toContain('unknown duration unit `w`');
    expect(problem('30sec')).toContain('unknown duration unit `sec`');
    expect(problem('99999999999999999999ms')).toContain('too large');
  });
});
