import type { Edge } from '../generated/Edge';
import type { EdgeRunMark, NodeRunMark, WorkflowFlow, WorkflowFlowEdge } from '../workflow-view/flow/flowTypes';
import type { RunMarks } from '../workflow-view/canvas/runMarks';
import { edgeKey, type NodeProgress, type RunProgress, type TakenEdge } from './runProgress';

const NO_NODES: ReadonlyMap<string, NodeProgress> = new Map();

/** What an edge's mark depends on besides the progress. */
type EdgeInfo = { key: string; label: string | null; first: boolean; siblings: number };

/** Whether `edge` is the one of its endpoints' edges the run took (by label, else the first). */
function isTakenEdge(edge: EdgeInfo, taken: TakenEdge): boolean {
  if (edge.siblings <= 1) return true;
  if (taken.label !== null) return edge.label === taken.label;
  return edge.first;
}

/**
 * For endpoints that several of `edges` share: how many do. This relies on the edges'
 * occurrences being numbered as a parsed workflow numbers them: the n edges from one node to
 * another are occurrences 0 to n-1. Then a pair's count is its highest occurrence plus one, and
 * only an edge with a later occurrence marks its endpoints as shared, so only those are keyed:
 * a 20,000-edge run's graph is opened without making a key per edge. Edges numbered otherwise
 * (say two occurrence-0 edges between the same nodes, which only a hand-made workflow has) are
 * miscounted: such a pair is taken as having one edge, marked whenever the pair is taken.
 */
function sharedEndpoints(edges: readonly WorkflowFlowEdge[]): Map<string, number> {
  const shared = new Map<string, number>();
  for (const edge of edges) {
    const occurrence = edge.data?.edge.occurrence ?? 0;
    if (edge.data === undefined || occurrence === 0) continue;
    const key = edgeKey(edge.data.edge.from, edge.data.edge.to);
    shared.set(key, Math.max(shared.get(key) ?? 1, occurrence + 1));
  }
  return shared;
}

/**
 * A run's progress on a canvas (`RunMarks`): every handler node gets its status, visits and
 * retries (`pending` before it ran, or from `fallback`, the run's timeline, until its events
 * reach it), every edge the run took its reason and count, the latest one marked. Marks are
 * worked out when an element asks (only those drawn ask) and keep their object while they do
 * not change, so a new progress costs O(edges taken) and redraws only what changed.
 */
export class LiveRunMarks implements RunMarks {
  private readonly shared: Map<string, number>;
  /** What each edge asked about so far needs for its mark, by id. */
  private readonly infos = new Map<string, EdgeInfo>();
  private readonly listeners = new Set<() => void>();
  private readonly nodeMarks = new Map<string, NodeRunMark>();
  private readonly edgeMarks = new Map<string, EdgeRunMark | undefined>();
  private progress: RunProgress | null = null;
  private fallback: ReadonlyMap<string, NodeProgress> = NO_NODES;
  private latestSeq = 0;

  constructor(flow: WorkflowFlow) {
    this.shared = sharedEndpoints(flow.edges);
  }

  /**
   * Shows `progress` (nodes it has not reached as `fallback` has them); returns whether
   * anything may have changed (then `notify` redraws the elements already drawn).
   */
  show(progress: RunProgress, fallback: ReadonlyMap<string, NodeProgress> = NO_NODES): boolean {
    if (progress === this.progress && fallback === this.fallback) return false;
    this.progress = progress;
    this.fallback = fallback;
    let latest = 0;
    for (const taken of progress.edges.values()) latest = Math.max(latest, taken.lastSeq);
    this.latestSeq = latest;
    return true;
  }

  private infoOf(id: string, edge: Edge): EdgeInfo {
    let info = this.infos.get(id);
    if (info === undefined) {
      const key = edgeKey(edge.from, edge.to);
      info = { key, label: edge.label, first: edge.occurrence === 0, siblings: this.shared.get(key) ?? 1 };
      this.infos.set(id, info);
    }
    return info;
  }

  /** Tells every drawn element to read its mark again. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly node = (id: string): NodeRunMark | undefined => {
    const found = this.progress?.nodes.get(id) ?? this.fallback.get(id);
    const status = found?.status ?? 'pending';
    const visits = found?.visits ?? 0;
    const retries = found?.retries ?? 0;
    const old = this.nodeMarks.get(id);
    if (old !== undefined && old.status === status && old.visits === visits && old.retries === retries) return old;
    const mark = { status, visits, retries };
    this.nodeMarks.set(id, mark);
    return mark;
  };

  readonly edge = (id: string, edge: Edge | undefined): EdgeRunMark | undefined => {
    const info = edge === undefined ? undefined : this.infoOf(id, edge);
    const taken = info === undefined ? undefined : this.progress?.edges.get(info.key);
    const mark =
      info !== undefined && taken !== undefined && isTakenEdge(info, taken)
        ? { reason: taken.reason ?? 'taken', count: taken.count, latest: taken.lastSeq === this.latestSeq }
        : undefined;
    const old = this.edgeMarks.get(id);
    if (old === mark || (old !== undefined && mark !== undefined && old.reason === mark.reason && old.count === mark.count && old.latest === mark.latest)) {
      return old;
    }
    this.edgeMarks.set(id, mark);
    return mark;
  };
}
