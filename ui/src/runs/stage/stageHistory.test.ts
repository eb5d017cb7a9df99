import { describe, expect, it } from 'vitest';
import type { TimelineStage } from '../../generated/TimelineStage';
import { eventStream } from '../runEvents.testdata';
import { routingDecision } from './routingDecision';
import { stageHistoryOf, stageHistoryRequest, stageNeedsHistory, STAGE_PAGE_EVENTS } from './stageHistory';

const ended = { node_id: 'test', visit: 2, started_at: '2026-01-01T12:00:03.000Z', ended_at: '2026-01-01T12:00:05.000Z', stage_dir: 'nodes/test-visit_2' } as TimelineStage;

describe('a stage of a long run read from a page of its events', () => {
  it('is read only when the screen holds just the tail and the stage has ended', () => {
    expect(stageNeedsHistory(ended, 0)).toBe(false);
    expect(stageNeedsHistory(ended, 100_005)).toBe(true);
    expect(stageNeedsHistory({ ...ended, ended_at: null }, 100_005)).toBe(false);
  });

  it('asks for the events from the moment the stage started', () => {
    expect(stageHistoryRequest('R1', ended)).toEqual({ run_id: 'R1', after_seq: 0, since: ended.started_at, limit: STAGE_PAGE_EVENTS });
  });

  it('gives the stage its routing decision and transcript from the page alone', () => {
    const { events, add } = eventStream();
    add('stage.started', 'test', { visit: 1, attempt: 1 });
    add('command.output', 'test', { stream: 'stdout', text: 'first\n' });
    add('stage.failed', 'test', {});
    add('edge.selected', undefined, { from: 'test', to: 'fix', label: 'failed', condition: 'outcome=fail', reason: 'condition' });
    const started = add('stage.started', 'test', { visit: 2, attempt: 1 });
    add('command.output', 'test', { stream: 'stdout', text: 'second\n' });
    add('stage.completed', 'test', { status: 'success' });
    add('edge.selected', undefined, { from: 'test', to: 'exit', label: 'passed', condition: 'outcome=success', reason: 'condition' });
    // The page starts at the second visit, as `since` asks; something not an event is skipped.
    const page: unknown[] = [...events.slice(4), { not: 'an event' }];
    const history = stageHistoryOf(page);
    expect(history.events).toHaveLength(4);
    expect(routingDecision(history.events, 'test', started.ts)?.to).toBe('exit');
    expect(history.transcripts.get('test', 2)?.items).toEqual([{ kind: 'text', stream: 'stdout', text: 'second\n' }]);
  });
});
