import type { StageState } from '../generated/StageState';
import type { Timeline } from '../generated/Timeline';
import { statusOfOutcome, type NodeProgress, type NodeRunStatus, type RunProgress } from './runProgress';

/** A stage still going or cut short as such; one that ended as its outcome reads in the events. */
function statusOfStage(state: StageState): NodeRunStatus {
  return state === 'running' || state === 'interrupted' ? state : statusOfOutcome(state);
}

/**
 * `progress` with every node its events have not reached yet taken from the run's timeline
 * (its latest visit's status, visits and retries): a long run's graph is coloured as soon as
 * the timeline arrives, while thousands of events are still being replayed. Nodes the events
 * have reached keep what the events say (they are newer, and know about rollbacks).
 */
export function withTimelineStatuses(progress: RunProgress, timeline: Timeline | null): RunProgress {
  if (timeline === null) return progress;
  const fromTimeline = new Map<string, NodeProgress>();
  for (const stage of timeline.stages) {
    if (progress.nodes.has(stage.node_id)) continue;
    const known = fromTimeline.get(stage.node_id);
    const latest = known === undefined || stage.visit >= known.visits;
    fromTimeline.set(stage.node_id, {
      status: latest ? statusOfStage(stage.status) : (known?.status ?? 'pending'),
      visits: Math.max(known?.visits ?? 0, stage.visit),
      retries: (known?.retries ?? 0) + stage.retries,
      outcome: latest ? stage.status : (known?.outcome ?? null),
    });
  }
  if (fromTimeline.size === 0) return progress;
  return { ...progress, nodes: new Map([...fromTimeline, ...progress.nodes]) };
}
