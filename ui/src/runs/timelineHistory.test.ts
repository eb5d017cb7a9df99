import { describe, expect, it } from 'vitest';
import type { Timeline } from '../generated/Timeline';
import type { TimelineStage } from '../generated/TimelineStage';
import { checkpointOfTimeline } from './scrubContext';
import { eventStream } from './runEvents.testdata';
import { progressOf } from './runProgress';
import { progressOfTimeline, progressOverHistory } from './timelineHistory';
import { timelineStage } from './timelineStage.testdata';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function stage(node_id: string, visit: number, start: number, end: number | null, status: TimelineStage['status'], extra: Partial<TimelineStage> = {}): TimelineStage {
  return timelineStage(node_id, visit, status, {
    started_at: at(start),
    ended_at: end === null ? null : at(end),
    duration_ms: end === null ? null : (end - start) * 1000,
    ...extra,
  });
}

/** start → test (fails) → fix → test (passes) → exit, one second each. */
const loop: Timeline = {
  run_id: 'R1',
  status: 'success',
  lanes: [],
  stages: [
    stage('start', 1, 0, 1, 'success'),
    stage('test', 1, 1, 2, 'fail'),
    stage('fix', 1, 2, 3, 'success'),
    stage('test', 2, 3, 4, 'success', { retries: 1 }),
    stage('exit', 1, 4, 5, 'success'),
  ],
};

describe("a long run's progress from its timeline", () => {
  it('has each node as its latest visit left it and the edges taken, counted', () => {
    const p = progressOfTimeline(loop);
    expect(p.nodes.get('test')).toEqual({ status: 'succeeded', visits: 2, retries: 1, outcome: 'success' });
    expect(p.nodes.get('fix')?.status).toBe('succeeded');
    expect([...p.edges.keys()].sort()).toEqual(['fix->test', 'start->test', 'test->exit', 'test->fix']);
    expect(p.edges.get('test->fix')).toMatchObject({ count: 1, reason: null, label: null });
    expect(p.runState).toBe('completed');
    expect(p.current).toBeNull();
  });

  it('is the run as it stood at a moment when scrubbed', () => {
    const p = progressOfTimeline(loop, T0 + 3500);
    expect(p.nodes.get('test')).toMatchObject({ status: 'running', visits: 2 });
    expect(p.nodes.has('exit')).toBe(false);
    expect(p.current).toBe('test');
    expect(p.runState).toBe('running');
    const failed = progressOfTimeline(loop, T0 + 2500);
    expect(failed.nodes.get('test')?.status).toBe('failed');
    expect(failed.edges.has('fix->test')).toBe(false);
  });

  it('shows a stage waiting for a person as waiting, and one cut short as interrupted', () => {
    const wait = { question_id: 'q', node_id: 'gate', visit: 1, question: 'Ship?', choices: [], started_at: at(1.5), ended_at: null, duration_ms: null, outcome: 'waiting' as const, answer: null };
    const waiting: Timeline = { run_id: 'R', status: 'running', lanes: [], stages: [stage('start', 1, 0, 1, 'success'), stage('gate', 1, 1, null, 'running', { waits: [wait] })] };
    expect(progressOfTimeline(waiting).nodes.get('gate')?.status).toBe('waiting');
    expect(progressOfTimeline(waiting, T0 + 1200).nodes.get('gate')?.status).toBe('running');
    const cut: Timeline = { run_id: 'R', status: 'interrupted', lanes: [], stages: [stage('gate', 1, 1, null, 'interrupted')] };
    expect(progressOfTimeline(cut).nodes.get('gate')?.status).toBe('interrupted');
  });

  it('gives the tail its say over the history, counting nothing twice', () => {
    const history = progressOfTimeline(loop);
    const { events, add } = eventStream(T0 + 10_000);
    add('edge.selected', undefined, { from: 'test', to: 'fix', label: 'failed', condition: 'outcome=fail', reason: 'condition' });
    add('stage.started', 'fix', { visit: 2, attempt: 1 });
    const shown = progressOverHistory(history, progressOf(events));
    expect(shown.nodes.get('fix')).toMatchObject({ status: 'running', visits: 2 });
    expect(shown.nodes.get('test')?.status).toBe('succeeded');
    expect(shown.edges.get('test->fix')).toMatchObject({ reason: 'condition', label: 'failed', count: 1 });
    expect(shown.current).toBe('fix');
    expect(progressOverHistory(history, progressOf([]))).toBe(history);
  });

  it('finds the checkpoint saved after the last stage ended by a moment', () => {
    expect(checkpointOfTimeline(loop, T0 + 500)).toBeNull();
    expect(checkpointOfTimeline(loop, T0 + 3500)).toEqual({ node: 'fix', sha: null, seq: 0 });
  });
});
