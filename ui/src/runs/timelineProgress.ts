import type { StageState } from '../generated/StageState';
import type { Timeline } from '../generated/Timeline';
import { statusOfOutcome, type NodeProgress, type NodeRunStatus, type RunProgress } from './runProgress';

/** A stage still going or cut short as such; one that ended as its outcome reads in the events. */
function statusOfStage(state: StageState): NodeRunStatus {
  return state === 'running' || state === 'interrupted' ? state : statusOfOutcome(state);
}

/**
 * Each node of the run's timeline as its latest visit left it (status, visits, retries over
 * all visits): computed once per timeline (O(stages)), merged into progress as often as it
 * changes (O(nodes)) by `withTimelineNodes`.
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

/**
 * `progress` with every node its events have not reached yet taken from the run's timeline
 * (`nodesOfTimeline`: its latest visit's status, visits and retries): a long run's graph is
 * coloured as soon as the timeline arrives, while thousands of events are still being
 * replayed. Nodes the events have reached keep what the events say (they are newer, and know
 * about rollbacks).
 */
export function withTimelineNodes(progress: RunProgress, timelineNodes: ReadonlyMap<string, NodeProgress>): RunProgress {
  const fromTimeline = new Map<string, NodeProgress>();
  for (const [id, node] of timelineNodes) if (!progress.nodes.has(id)) fromTimeline.set(id, node);
  if (fromTimeline.size === 0) return progress;
  return { ...progress, nodes: new Map([...fromTimeline, ...progress.nodes]) };
}

/** `withTimelineNodes` of the timeline's nodes. */
export function withTimelineStatuses(progress: RunProgress, timeline: Timeline | null): RunProgress {
  return withTimelineNodes(progress, nodesOfTimeline(timeline));
}
