import type { JUnitReport } from '../../generated/JUnitReport';
import type { JUnitSuite } from '../../generated/JUnitSuite';

/** Counts of a suite or a whole report. */
export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Seconds, or null when not known. */
  time: number | null;
}

/** A suite's counts as Rust reported them. */
export function suiteCounts(suite: JUnitSuite): JunitCounts {
  return { tests: suite.tests, failures: suite.failures, errors: suite.errors, skipped: suite.skipped, time: suite.time };
}

/** The report's totals: its suites' counts summed, and its own time. */
export function reportCounts(report: JUnitReport): JunitCounts {
  const total = (key: 'tests' | 'failures' | 'errors' | 'skipped') => report.suites.reduce((sum, s) => sum + s[key], 0);
  return { tests: total('tests'), failures: total('failures'), errors: total('errors'), skipped: total('skipped'), time: report.time };
}

/** Whether any case failed or errored. */
export function hasProblems(counts: JunitCounts): boolean {
  return counts.failures > 0 || counts.errors > 0;
}

/** "3 tests: 2 passed, 1 failed · 0.42 s" (counts that are zero left out). */
export function countsSummary(counts: JunitCounts): string {
  const passed = Math.max(0, counts.tests - counts.failures - counts.errors - counts.skipped);
  const parts = [
    [passed, 'passed'],
    [counts.failures, 'failed'],
    [counts.errors, counts.errors === 1 ? 'error' : 'errors'],
    [counts.skipped, 'skipped'],
  ] as const;
  const listed = parts.filter(([n]) => n > 0).map(([n, word]) => `${n} ${word}`);
  const head = `${counts.tests} ${counts.tests === 1 ? 'test' : 'tests'}${listed.length > 0 ? `: ${listed.join(', ')}` : ''}`;
  const time = formatSeconds(counts.time);
  return time === '' ? head : `${head} · ${time}`;
}

/** "0.42 s", "12 ms", "<1 ms", "2 min 5 s": a duration for people ("" when unknown). */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds > 0 && seconds < 0.0005) return '<1 ms';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}
