import type { StageState } from '../generated/StageState';
import type { Timeline } from '../generated/Timeline';
import { statusOfOutcome, type NodeProgress, type NodeRunStatus } from './runProgress';

/** A stage still going or cut short as such; one that ended as its outcome reads in the events. */
function statusOfStage(state: StageState): NodeRunStatus {
  return state === 'running' || state === 'interrupted' ? state : statusOfOutcome(state);
}

/**
 * Each node of the run's timeline as its latest visit left it (status, visits, retries over
 * all visits): computed once per timeline (O(stages)). The live graph shows a node so until
 * the run's events reach it (a long run's graph is coloured as soon as the timeline arrives,
 * while thousands of events are still being replayed; see `LiveRunMarks`).
 */
export function nodesOfTimeline(timeline: Timeline | null): ReadonlyMap<string, NodeProgress> {
  const nodes = new Map<string, NodeProgress>();
  if (timeline === null) return nodes;
  for (const stage of timeline.stages) {
    const known = nodes.get(stage.node_id);
    const latest = known === undefined || stage.visit >= known.visits;
    nodes.set(stage.node_id, {
      status: latest ? statusOfStage(stage.status) : (known?.status ?? 'pending'),
      visits: Math.max(known?.visits ?? 0, stage.visit),
      retries: (known?.retries ?? 0) + stage.retries,
      outcome: latest ? stage.status : (known?.outcome ?? null),
    });
  }
  return nodes;
}
