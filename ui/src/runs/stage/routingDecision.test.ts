import { describe, expect, it } from 'vitest';
import { eventStream } from '../runEvents.testdata';
import { describeReason, firstEventSince, routingDecision } from './routingDecision';

describe('routing decision of a stage visit', () => {
  it('finds the edge each visit chose', () => {
    const { events, add } = eventStream();
    const first = add('stage.started', 'unit', { visit: 1, attempt: 1 });
    add('stage.failed', 'unit', {});
    add('edge.selected', undefined, { from: 'unit', to: 'fix', label: 'failed', condition: 'outcome=fail', reason: 'condition' });
    const second = add('stage.started', 'unit', { visit: 2, attempt: 1 });
    add('stage.completed', 'unit', { status: 'success' });
    add('edge.selected', undefined, { from: 'unit', to: 'browser', label: 'passed', condition: 'outcome=success', reason: 'condition' });
    expect(routingDecision(events, 'unit', first.ts)).toEqual({ to: 'fix', label: 'failed', condition: 'outcome=fail', reason: 'condition' });
    expect(routingDecision(events, 'unit', second.ts)?.to).toBe('browser');
    expect(describeReason('weight')).toMatch(/heaviest/);
  });

  it('is null while the visit has not routed yet', () => {
    const { events, add } = eventStream();
    const started = add('stage.started', 'unit', { visit: 1, attempt: 1 });
    expect(routingDecision(events, 'unit', started.ts)).toBeNull();
  });

  it('finds the first event at or after a moment by binary search', () => {
    const { events, add } = eventStream();
    const times = [add('run.started', undefined, {}), add('stage.started', 'unit', { visit: 1, attempt: 1 }), add('stage.completed', 'unit', {})].map((e) => Date.parse(e.ts));
    const [t0 = 0, t1 = 0, t2 = 0] = times;
    expect(firstEventSince(events, t0 - 1)).toBe(0);
    expect(firstEventSince(events, t1)).toBe(1);
    expect(firstEventSince(events, t1 + 1)).toBe(2);
    expect(firstEventSince(events, t2 + 1)).toBe(events.length);
    expect(firstEventSince([], t0)).toBe(0);
  });
});
