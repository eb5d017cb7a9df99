import { describe, expect, it } from 'vitest';
import type { TimelineStage } from '../generated/TimelineStage';
import type { Timeline } from '../generated/Timeline';
import { nodesOfTimeline } from './timelineProgress';
import { timelineStage } from './timelineStage.testdata';

function stage(node_id: string, visit: number, status: TimelineStage['status'], retries = 0): TimelineStage {
  return timelineStage(node_id, visit, status, { attempts: 1 + retries, retries });
}

function timeline(stages: TimelineStage[]): Timeline {
  return { run_id: 'r', status: 'success', stages, lanes: ['main'] };
}

describe('nodesOfTimeline', () => {
  it('has each node as its latest visit left it, with retries over all visits', () => {
    const nodes = nodesOfTimeline(
      timeline([stage('unit', 1, 'fail'), stage('fix', 1, 'success', 2), stage('unit', 2, 'success'), stage('deploy', 1, 'running')]),
    );
    expect(nodes.get('unit')).toEqual({ status: 'succeeded', visits: 2, retries: 0, outcome: 'success' });
    expect(nodes.get('fix')).toEqual({ status: 'succeeded', visits: 1, retries: 2, outcome: 'success' });
    expect(nodes.get('deploy')?.status).toBe('running');
  });

  it('is empty without a timeline', () => {
    expect(nodesOfTimeline(null).size).toBe(0);
    expect(nodesOfTimeline(timeline([])).size).toBe(0);
  });
});
