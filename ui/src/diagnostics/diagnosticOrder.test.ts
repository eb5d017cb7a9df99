import { describe, expect, it } from 'vitest';
import { diagnostic, span } from '../test-support/workflowBuilder';
import { countBySeverity, formatLocation, groupBySeverity, sortDiagnostics } from './diagnosticOrder';
import { diagnosticTarget } from './diagnosticTarget';
import { severityNoun, worstSeverity } from './severity';

const info = diagnostic({ rule: 'style', severity: 'info', span: span(1, 1) });
const lateError = diagnostic({ rule: 'syntax', severity: 'error', span: span(9, 4) });
const earlyError = diagnostic({ rule: 'start_node', severity: 'error', span: span(2, 7) });
const warning = diagnostic({ rule: 'reachability', severity: 'warning', span: span(5, 1) });
const placeless = diagnostic({ rule: 'a_rule', severity: 'error', span: null });

describe('sortDiagnostics', () => {
  it('orders by severity, then line and column, placeless last', () => {
    const sorted = sortDiagnostics([info, lateError, warning, placeless, earlyError]);
    expect(sorted.map((d) => d.rule)).toEqual([
      'start_node',
      'syntax',
      'a_rule',
      'reachability',
      'style',
    ]);
  });

  it('does not mutate its input', () => {
    const input = [info, lateError];
    sortDiagnostics(input);
    expect(input).toEqual([info, lateError]);
  });
});

describe('groupBySeverity', () => {
  it('returns only non-empty groups, errors first', () => {
    const groups = groupBySeverity([info, lateError, earlyError]);
    expect(groups.map((g) => g.severity)).toEqual(['error', 'info']);
    expect(groups[0]?.diagnostics).toEqual([earlyError, lateError]);
  });
});

describe('counts and wording', () => {
  it('counts each severity', () => {
    expect(countBySeverity([info, lateError, earlyError, warning])).toEqual({
      error: 2,
      warning: 1,
      info: 1,
    });
  });

  it('finds the worst severity', () => {
    expect(worstSeverity(['info', 'warning'])).toBe('warning');
    expect(worstSeverity([])).toBeNull();
  });

  it('formats line:column and pluralises', () => {
    expect(formatLocation(lateError)).toBe('9:4');
    expect(formatLocation(placeless)).toBeNull();
    expect(formatLocation({ ...placeless, span: { start: 0, end: 0, line: 0, column: 0 } })).toBeNull();
    expect(severityNoun('error', 1)).toBe('error');
    expect(severityNoun('warning', 3)).toBe('warnings');
  });
});

describe('diagnosticTarget', () => {
  it('prefers the edge, then the node', () => {
    const d = diagnostic({ node: 'a', edge: { from: 'a', to: 'b', occurrence: 1 } });
    expect(diagnosticTarget(d)).toEqual({ type: 'edge', id: 'a->b#1' });
    expect(diagnosticTarget(diagnostic({ node: 'a' }))).toEqual({ type: 'node', id: 'a' });
    expect(diagnosticTarget(diagnostic())).toBeNull();
  });

  it('falls back to the node when the edge is not on the canvas', () => {
    const d = diagnostic({ node: 'a', edge: { from: 'a', to: 'b', occurrence: 0 } });
    expect(diagnosticTarget(d, (s) => s.type === 'node')).toEqual({ type: 'node', id: 'a' });
    expect(diagnosticTarget(d, () => false)).toBeNull();
  });
});
