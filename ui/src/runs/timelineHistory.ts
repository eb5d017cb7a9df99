import type { Timeline } from '../generated/Timeline';
import type { TimelineStage } from '../generated/TimelineStage';
import { parseTime, stageTimes } from './timeline/stageTimes';
import { statusOfOutcome, edgeKey, type NodeProgress, type NodeRunStatus, type RunProgress, type TakenEdge } from './runProgress';

/**
 * A run with more events than this is not replayed: the run screen follows its events from
 * the last one its record counts (the live tail) and reads its history from the timeline
 * (`progressOfTimeline`) and, for one stage, from a page of events (`run_events`). A
 * 20,000-stage run has 100,000 events (25 MB); replaying them took the page most of a minute.
 */
export const LONG_HISTORY_EVENTS = 5_000;

/** `text`'s time in epoch ms (NaN when it is not one): the timeline layout's reader, several
 * times cheaper than Date.parse over a 20,000-stage timeline. */
function timeOf(text: string): number {
  return parseTime(text) ?? Number.NaN;
}

/** How `stage` stood at `atMs` (epoch ms; it had started by then), given when it ended (`endedAt`, NaN: not known). */
function stageStatusAt(stage: TimelineStage, endedAt: number, atMs: number): NodeRunStatus {
  if (stage.ended_at !== null && endedAt <= atMs) return stage.status === 'running' || stage.status === 'interrupted' ? stage.status : statusOfOutcome(stage.status);
  if (stage.status === 'interrupted' && atMs === Number.POSITIVE_INFINITY) return 'interrupted';
  const waiting = stage.waits.some((w) => timeOf(w.started_at) <= atMs && (w.ended_at === null || timeOf(w.ended_at) > atMs));
  return waiting ? 'waiting' : 'running';
}

/**
 * The run's progress as its timeline tells it, at `atMs` (epoch ms; the end by default):
 * each node as its latest visit started by then left it, and the edges taken between the
 * stages one after another in each lane (how often; why is not in the timeline: `reason`
 * null, no label). O(stages); what the screen shows of a long run instead of replaying its
 * events. `seq` counts the stages started by then.
 */
export function progressOfTimeline(timeline: Timeline, atMs = Number.POSITIVE_INFINITY): RunProgress {
  const nodes = new Map<string, NodeProgress>();
  const edges = new Map<string, TakenEdge>();
  const lastInLane = new Map<string, string>();
  let current: string | null = null;
  let count = 0;
  let lastEventAt = 0;
  const { starts, ends } = stageTimes(timeline.stages);
  const { stages } = timeline;
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i];
    if (stage === undefined) continue;
    const started = starts[i] ?? Number.NaN;
    if (started > atMs) break;
    count += 1;
    lastEventAt = Math.max(lastEventAt, started);
    const status = stageStatusAt(stage, ends[i] ?? Number.NaN, atMs);
    const known = nodes.get(stage.node_id);
    nodes.set(stage.node_id, {
      status,
      visits: Math.max(known?.visits ?? 0, stage.visit),
      retries: (known?.retries ?? 0) + stage.retries,
      outcome: status === 'running' || status === 'waiting' || status === 'interrupted' ? null : stage.status,
    });
    if (status === 'running' || status === 'waiting') current = stage.node_id;
    else if (current === stage.node_id) current = null;
    const lane = stage.branch ?? '';
    const from = lastInLane.get(lane);
    if (from !== undefined) {
      const key = edgeKey(from, stage.node_id);
      const before = edges.get(key);
      edges.set(key, { from, to: stage.node_id, label: null, condition: null, reason: null, count: (before?.count ?? 0) + 1, lastSeq: count });
    }
    lastInLane.set(lane, stage.node_id);
  }
  const finished = atMs === Number.POSITIVE_INFINITY && timeline.status !== 'running' && timeline.status !== 'interrupted';
  const runState: RunProgress['runState'] = !finished
    ? 'running'
    : timeline.status === 'success'
      ? 'completed'
      : timeline.status === 'cancelled'
        ? 'cancelled'
        : 'failed';
  return { nodes, edges, current, runState, seq: count, lastEventAt };
}

/**
 * `tail` (the progress of the events followed live) over `history` (the timeline's, which is
 * reloaded as the run goes, so it may already hold what the tail saw): a node the tail has
 * reached has the tail's status, an edge the tail took its reason and label; visits, retries
 * and counts are the larger of the two (never added: both may count the same stage).
 */
export function progressOverHistory(history: RunProgress, tail: RunProgress): RunProgress {
  if (tail.seq === 0) return history;
  const nodes = new Map(history.nodes);
  for (const [id, node] of tail.nodes) {
    const before = history.nodes.get(id);
    nodes.set(id, { ...node, visits: Math.max(node.visits, before?.visits ?? 0), retries: Math.max(node.retries, before?.retries ?? 0) });
  }
  const edges = new Map(history.edges);
  // The tail's `lastSeq`s are event seqs, above every history edge's (a count of stages).
  for (const [key, edge] of tail.edges) {
    edges.set(key, { ...edge, count: Math.max(edge.count, history.edges.get(key)?.count ?? 0) });
  }
  return { ...tail, nodes, edges, current: tail.current ?? history.current };
}
