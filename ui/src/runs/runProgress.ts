import type { RunEvent } from '../api/runEvent';

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
  /** `condition`, `label`, `suggestion`, `weight`, `retry_target`, `goal_gate`, `fan_in`. */
  reason: string;
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

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
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
    const props = event.properties;
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
        this.rollBack(Array.isArray(props.completed_nodes) ? props.completed_nodes.filter((n): n is string => typeof n === 'string') : []);
        return;
      case 'edge.selected': {
        const from = text(props.from);
        const to = text(props.to);
        if (from === null || to === null) return;
        const key = edgeKey(from, to);
        const before = this.edges.get(key);
        this.edges.set(key, {
          from,
          to,
          label: text(props.label),
          condition: text(props.condition),
          reason: text(props.reason) ?? 'unknown',
          count: (before?.count ?? 0) + 1,
          lastSeq: event.seq,
        });
        return;
      }
      default:
        break;
    }
    if (nodeId === null) return;
    const node = this.node(nodeId);
    switch (event.event) {
      case 'stage.started':
        node.status = 'running';
        node.visits = Math.max(node.visits, count(props.visit) ?? node.visits + 1);
        node.outcome = null;
        this.current = nodeId;
        break;
      case 'stage.retrying':
        node.status = 'retrying';
        node.retries += 1;
        break;
      case 'interview.started':
        node.status = 'waiting';
        this.current = nodeId;
        break;
      case 'interview.answered':
      case 'interview.timed_out':
        if (node.status === 'waiting') node.status = 'running';
        break;
      case 'stage.completed': {
        const outcome = text(props.status) ?? 'success';
        node.outcome = outcome;
        node.status = statusOfOutcome(outcome);
        if (this.current === nodeId) this.current = null;
        break;
      }
      case 'stage.failed':
        node.outcome = 'fail';
        node.status = text(props.failure_class) === 'cancelled' ? 'interrupted' : 'failed';
        if (this.current === nodeId) this.current = null;
        break;
      default:
        break;
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
