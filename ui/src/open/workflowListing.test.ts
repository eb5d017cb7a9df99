import { describe, expect, it } from 'vitest';
import { relativeTime, sortByRecent, splitEntryPath } from './workflowListing';

const entry = (relative_path: string, modified_ms: number) => ({
  path: `/ws/${relative_path}`,
  relative_path,
  modified_ms,
});

describe('sortByRecent', () => {
  it('puts the most recently modified first, ties by path', () => {
    const sorted = sortByRecent([entry('b.dot', 10), entry('a.dot', 10), entry('new.dot', 99)]);
    expect(sorted.map((e) => e.relative_path)).toEqual(['new.dot', 'a.dot', 'b.dot']);
  });
});

describe('splitEntryPath', () => {
  it('separates the name from its folder', () => {
    expect(splitEntryPath('review/code.dot')).toEqual({ name: 'code.dot', folder: 'review' });
    expect(splitEntryPath('hello.dot')).toEqual({ name: 'hello.dot', folder: '' });
  });
});

describe('relativeTime', () => {
  const now = Date.UTC(2025, 5, 30, 12, 0, 0);
  it('describes recent times in words', () => {
    expect(relativeTime(now - 10_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 24 * 3_600_000, now)).toBe('yesterday');
    expect(relativeTime(now - 3 * 86_400_000, now)).toBe('3 days ago');
  });

  it('falls back to a date for old times', () => {
    expect(relativeTime(Date.UTC(2024, 0, 2), now)).toBe('2024-01-02');
  });
});
