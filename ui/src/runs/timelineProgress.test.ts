import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../api/runEvent';
import { runEvent } from './runEvents.testdata';
import type { TimelineStage } from '../generated/TimelineStage';
import type { Timeline } from '../generated/Timeline';
import { progressOf } from './runProgress';
import { withTimelineStatuses } from './timelineProgress';

function stage(node_id: string, visit: number, status: TimelineStage['status'], retries = 0): TimelineStage {
  return {
    node_id,
    visit,
    kind: 'command',
    branch: null,
    status,
    attempts: 1 + retries,
    retries,
    started_at: '2026-11-23T01:00:00Z',
    ended_at: null,
    duration_ms: null,
    notes: null,
    failure_reason: null,
    failure_class: null,
    last_retry_reason: null,
    stage_dir: `nodes/${node_id}`,
    waits: [],
  };
}

function timeline(stages: TimelineStage[]): Timeline {
  return { run_id: 'r', status: 'success', stages, lanes: ['main'] };
}

describe('withTimelineStatuses', () => {
  it('colours nodes the events have not reached from their latest visit in the timeline', () => {
    const shown = withTimelineStatuses(
      progressOf([], Infinity),
      timeline([stage('unit', 1, 'fail'), stage('fix', 1, 'success', 2), stage('unit', 2, 'success'), stage('deploy', 1, 'running')]),
    );
    expect(shown.nodes.get('unit')).toEqual({ status: 'succeeded', visits: 2, retries: 0, outcome: 'success' });
    expect(shown.nodes.get('fix')).toEqual({ status: 'succeeded', visits: 1, retries: 2, outcome: 'success' });
    expect(shown.nodes.get('deploy')?.status).toBe('running');
  });

  it('keeps what the events say for nodes they have reached', () => {
    const events: RunEvent[] = [runEvent('stage.started', { seq: 1, ts: '2026-11-23T01:00:00Z', node: 'unit' })];
    const progress = progressOf(events, Infinity);
    expect(progress.nodes.get('unit')?.status).toBe('running');
    const shown = withTimelineStatuses(progress, timeline([stage('unit', 1, 'fail'), stage('fix', 1, 'success')]));
    expect(shown.nodes.get('unit')?.status).toBe(progress.nodes.get('unit')?.status);
    expect(shown.nodes.get('fix')?.status).toBe('succeeded');
  });

  it('returns the progress itself when there is nothing to add', () => {
    const progress = progressOf([], Infinity);
    expect(withTimelineStatuses(progress, null)).toBe(progress);
    expect(withTimelineStatuses(progress, timeline([]))).toBe(progress);
  });
});
