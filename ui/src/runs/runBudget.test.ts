import { describe, expect, it } from 'vitest';
import type { AttrEntry } from '../generated/AttrEntry';
import type { RunEvent } from '../api/runEvent';
import { budgetFields, formatBudget, graphBudget, parseBudget, recordedBudget, stoppedByBudget } from './runBudget';

function attr(canonical: string, value: AttrEntry['value']): AttrEntry {
  return {
    key: canonical,
    canonical,
    value,
    raw: String(value.value),
    origin: 'graph',
    span: { start: 0, end: 0, line: 1, column: 1 },
  } as unknown as AttrEntry;
}

function started(seq: number, properties: Record<string, unknown>): RunEvent {
  return {
    id: `e${seq}`,
    ts: '2026-01-01T00:00:00.000Z',
    run_id: 'R',
    seq,
    event: 'run.started',
    properties: { workflow: 'W', goal: null, work_dir: '/w', run_dir: '/r', dry_run: false, resumed: seq > 1, ...properties },
  } as RunEvent;
}

describe('run budget form', () => {
  it('starts from the graph attributes, empty where the graph sets none', () => {
    const attrs = [attr('max_cost_usd', { type: 'float', value: 2.5 }), attr('goal', { type: 'string', value: 'x' })];
    expect(budgetFields(graphBudget(attrs))).toEqual({ maxCost: '2.5', maxTokens: '' });
    const both = [attr('max_cost_usd', { type: 'integer', value: 3 }), attr('max_tokens', { type: 'integer', value: 200000 })];
    expect(budgetFields(graphBudget(both))).toEqual({ maxCost: '3', maxTokens: '200000' });
    expect(graphBudget([])).toEqual({ max_cost_usd: null, max_tokens: null });
    // A value the engine would not use is no first value either.
    expect(graphBudget([attr('max_tokens', { type: 'string', value: 'lots' })])).toEqual({ max_cost_usd: null, max_tokens: null });
  });

  it('sends empty fields as no limit and positive numbers as limits', () => {
    expect(parseBudget({ maxCost: '', maxTokens: ' ' })).toEqual({ ok: true, budget: { max_cost_usd: null, max_tokens: null } });
    expect(parseBudget({ maxCost: ' 2.50 ', maxTokens: '200000' })).toEqual({ ok: true, budget: { max_cost_usd: 2.5, max_tokens: 200000 } });
    expect(parseBudget({ maxCost: '$.5', maxTokens: '1,000' })).toEqual({ ok: true, budget: { max_cost_usd: 0.5, max_tokens: 1000 } });
  });

  it('names the field that is not a positive number', () => {
    for (const bad of ['0', '-1', 'abc', '1e3', '0x10', '1.2.3', 'Infinity']) {
      const parsed = parseBudget({ maxCost: bad, maxTokens: '' });
      expect(parsed.ok, bad).toBe(false);
      if (!parsed.ok) {
        expect(parsed.costError).toMatch(/positive/);
        expect(parsed.tokensError).toBeNull();
      }
    }
    for (const bad of ['0', '1.5', '-3', 'many', '99999999999999999999']) {
      const parsed = parseBudget({ maxCost: '1', maxTokens: bad });
      expect(parsed.ok, bad).toBe(false);
      if (!parsed.ok) {
        expect(parsed.costError).toBeNull();
        expect(parsed.tokensError).toMatch(/whole number/);
      }
    }
  });

  it('reads the limits of the latest start or resume, none for older runs', () => {
    expect(recordedBudget([])).toEqual({ max_cost_usd: null, max_tokens: null });
    expect(recordedBudget([started(1, {})])).toEqual({ max_cost_usd: null, max_tokens: null });
    const events = [started(1, { max_cost_usd: 0.5 }), started(9, { max_cost_usd: 5, max_tokens: 1000 })];
    expect(recordedBudget(events)).toEqual({ max_cost_usd: 5, max_tokens: 1000 });
  });

  it('tells a budget stop from other stops and shows limits', () => {
    expect(stoppedByBudget('budget exceeded: the run spent $0.9000, over its max_cost_usd of $0.5000')).toBe(true);
    expect(stoppedByBudget('cancelled')).toBe(false);
    expect(stoppedByBudget(null)).toBe(false);
    expect(formatBudget({ max_cost_usd: 2.5, max_tokens: 200000 })).toBe('$2.5 · 200,000 tokens');
    expect(formatBudget({ max_cost_usd: null, max_tokens: null })).toBeNull();
  });
});
