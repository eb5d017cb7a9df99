import { describe, expect, it } from 'vitest';
import { canResume, formatCost, formatCostOfLimit, formatDuration, formatStarted, formatTokens } from './runFormat';

describe('run formatting', () => {
  it('formats durations at every scale', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4_200)).toBe('4.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(192_000)).toBe('3 m 12 s');
    expect(formatDuration(3_900_000)).toBe('1 h 05 m');
    expect(formatDuration(-1)).toBe('–');
  });

  it('formats a run cost, with a dash when no price was known', () => {
    expect(formatCost(0.63)).toBe('$0.63');
    expect(formatCost(12.5)).toBe('$12.50');
    expect(formatCost(0.0042)).toBe('$0.0042');
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(null)).toBe('—');
    expect(formatTokens(150_000, 12_000)).toBe('150,000 input + 12,000 output tokens');
  });

  it('shows a run cost against the cost limit it ran under', () => {
    expect(formatCostOfLimit(0.375, 2)).toBe('$0.38 of $2.00');
    expect(formatCostOfLimit(null, 0.5)).toBe('— of $0.50');
    expect(formatCostOfLimit(0.63, null)).toBe('$0.63');
  });

  it('says how long ago a run started', () => {
    const now = Date.UTC(2026, 10, 23, 12, 0, 0);
    expect(formatStarted(new Date(now - 10_000).toISOString(), now)).toBe('just now');
    expect(formatStarted(new Date(now - 5 * 60_000).toISOString(), now)).toBe('5 min ago');
    expect(formatStarted(new Date(now - 3 * 3_600_000).toISOString(), now)).toBe('3 h ago');
    expect(formatStarted('2026-01-02T03:04:05Z', now)).toBe('2026-01-02 03:04');
  });

  it('resumes only runs that stopped short', () => {
    expect(canResume('fail')).toBe(true);
    expect(canResume('interrupted')).toBe(true);
    expect(canResume('running')).toBe(false);
    expect(canResume('success')).toBe(false);
  });
});
