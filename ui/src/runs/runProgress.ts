import type { RunEvent } from '../api/runEvent';
import type { EdgeReason } from '../generated/EdgeReason';

/** How a node of a run stands, as its events tell it. */
export type NodeRunStatus = 'pending' | 'running' | 'retrying' | 'waiting' | 'succeeded' | 'failed' | 'skipped' | 'interrupted';

/** One node's progress: its latest status, visits started and retries asked for. */
export type NodeProgress = {
  status: NodeRunStatus;
  visits: number;
  retries: number;
  /** The stage outcome as the engine named it (`success`, `partial_success`, `fail`, ...). */
  outcome: string | null;
};

/** An edge the run followed, and why. */
export type TakenEdge = {
  from: string;
  to: string;
  label: string | null;
  condition: string | null;
  /** Why; `null` when only the timeline says it was taken (see `progressOfTimeline`). */
  reason: EdgeReason | null;
  /** How many times it was followed. */
  count: number;
  /** The `seq` of the last time. */
  lastSeq: number;
};

/** The whole run's progress at some point of its event stream. */
export type RunProgress = {
  nodes: ReadonlyMap<string, NodeProgress>;
  /** Keyed `from->to`. */
  edges: ReadonlyMap<string, TakenEdge>;
  /** The node a stage is running (or waiting) at, if any. */
  current: string | null;
  /** `running` until a `run.*` end event; then `completed`, `failed` or `cancelled`. */
  runState: 'running' | 'completed' | 'failed' | 'cancelled';
  /** The last event applied (0 before any). */
  seq: number;
  /** When the last event applied happened (epoch ms; 0 before any). */
  lastEventAt: number;
};

/** The key of a taken edge. */
export function edgeKey(from: string, to: string): string {
  return `${from}->${to}`;
}

const STATUS_OF_OUTCOME: Record<string, NodeRunStatus> = {
  success: 'succeeded',
  partial_success: 'succeeded',
  skipped: 'skipped',
  fail: 'failed',
  retry: 'retrying',
};

/** How a node stands after a stage ended with `outcome` (an outcome not known counts as a success). */
export function statusOfOutcome(outcome: string): NodeRunStatus {
  return STATUS_OF_OUTCOME[outcome] ?? 'succeeded';
}

/**
 * Folds events into progress. Mutable for speed (a run may have tens of thousands of
 * events); `snapshot` hands out an immutable view for rendering.
 */
export class RunProgressBuilder {
  private readonly nodes = new Map<string, NodeProgress>();
  private readonly edges = new Map<string, TakenEdge>();
  private current: string | null = null;
  private runState: RunProgress['runState'] = 'running';
  private seq = 0;
  private lastEventAt = 0;

  private node(id: string): NodeProgress {
    let found = this.nodes.get(id);
    if (found === undefined) {
      found = { status: 'pending', visits: 0, retries: 0, outcome: null };
      this.nodes.set(id, found);
    }
    return found;
  }

  /** Applies one event (events already applied, by `seq`, are ignored). */
  apply(event: RunEvent): void {
    if (event.seq <= this.seq) return;
    this.seq = event.seq;
    this.lastEventAt = Date.parse(event.ts) || this.lastEventAt;
    const nodeId = event.node_id ?? null;
    switch (event.event) {
      case 'run.started':
        this.runState = 'running';
        return;
      case 'run.completed':
        this.end('completed');
        return;
      case 'run.failed':
        this.end('failed');
        return;
      case 'run.cancelled':
        this.end('cancelled');
        return;
      case 'run.rolled_back':
        this.rollBack(event.properties.completed_nodes);
        return;
      case 'edge.selected': {
        const { from, to, label, condition, reason } = event.properties;
        const key = edgeKey(from, to);
        const before = this.edges.get(key);
        this.edges.set(key, { from, to, label, condition, reason, count: (before?.count ?? 0) + 1, lastSeq: event.seq });
        return;
      }
      case 'stage.started': {
        if (nodeId === null) return;
        const node = this.node(nodeId);
        node.status = 'running';
        node.visits = Math.max(node.visits, event.properties.visit);
        node.outcome = null;
        this.current = nodeId;
        return;
      }
      case 'stage.retrying':
        if (nodeId === null) return;
        this.node(nodeId).status = 'retrying';
        this.node(nodeId).retries += 1;
        return;
      case 'interview.started':
        if (nodeId === null) return;
        this.node(nodeId).status = 'waiting';
        this.current = nodeId;
        return;
      case 'interview.answered':
      case 'interview.timed_out': {
        if (nodeId === null) return;
        const node = this.node(nodeId);
        if (node.status === 'waiting') node.status = 'running';
        return;
      }
      case 'stage.completed': {
        if (nodeId === null) return;
        const node = this.node(nodeId);
        node.outcome = event.properties.status;
        node.status = statusOfOutcome(event.properties.status);
        if (this.current === nodeId) this.current = null;
        return;
      }
      case 'stage.failed': {
        if (nodeId === null) return;
        const node = this.node(nodeId);
        node.outcome = 'fail';
        node.status = event.properties.failure_class === 'cancelled' ? 'interrupted' : 'failed';
        if (this.current === nodeId) this.current = null;
        return;
      }
      default:
        return;
    }
  }

  /**
   * Back to a checkpoint that had completed `completed` (in order): nodes it had not
   * completed are pending again, their visits forgotten, and only edges between nodes it had
   * completed stay taken.
   */
  private rollBack(completed: readonly string[]): void {
    const visits = new Map<string, number>();
    for (const node of completed) visits.set(node, (visits.get(node) ?? 0) + 1);
    for (const [id, node] of this.nodes) {
      const kept = visits.get(id);
      if (kept === undefined) {
        this.nodes.set(id, { status: 'pending', visits: 0, retries: 0, outcome: null });
      } else {
        node.visits = kept;
      }
    }
    for (const [key, edge] of this.edges) {
      if (!visits.has(edge.from) || !visits.has(edge.to)) this.edges.delete(key);
    }
    this.current = null;
  }

  private end(state: RunProgress['runState']): void {
    this.runState = state;
    for (const node of this.nodes.values()) {
      if (node.status === 'running' || node.status === 'retrying' || node.status === 'waiting') node.status = 'interrupted';
    }
    this.current = null;
  }

  /** An immutable copy of the progress so far. */
  snapshot(): RunProgress {
    const nodes = new Map<string, NodeProgress>();
    for (const [id, node] of this.nodes) nodes.set(id, { ...node });
    return {
      nodes,
      edges: new Map(this.edges),
      current: this.current,
      runState: this.runState,
      seq: this.seq,
      lastEventAt: this.lastEventAt,
    };
  }
}

/** The progress after `events` (optionally only those at or before `untilMs`, epoch ms). */
export function progressOf(events: readonly RunEvent[], untilMs?: number): RunProgress {
  const builder = new RunProgressBuilder();
  for (const event of events) {
    if (untilMs !== undefined && Date.parse(event.ts) > untilMs) break;
    builder.apply(event);
  }
  return builder.snapshot();
}
