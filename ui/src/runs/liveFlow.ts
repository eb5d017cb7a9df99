import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../workflow-view/flow/flowTypes';
import { edgeKey, type RunProgress, type TakenEdge } from './runProgress';

/** Whether `edge` is the one of its endpoints' edges the run took (by label, else the first). */
function isTakenEdge(edge: WorkflowFlowEdge, taken: TakenEdge, siblings: number): boolean {
  const data = edge.data;
  if (data === undefined) return false;
  if (siblings <= 1) return true;
  if (taken.label !== null) return data.edge.label === taken.label;
  return data.edge.occurrence === 0;
}

/**
 * The canvas flow with a run's progress on it: every handler node gets its status, visits
 * and retries (`pending` before it ran), every edge the run took its reason and count, the
 * latest one marked. Elements whose mark did not change keep their object, so the memoised
 * canvas redraws only what changed.
 */
export function withRunProgress(flow: WorkflowFlow, progress: RunProgress, previous?: WorkflowFlow): WorkflowFlow {
  const before = new Map<string, WorkflowFlowNode>();
  for (const node of previous?.nodes ?? []) before.set(node.id, node);
  const nodes = flow.nodes.map((node): WorkflowFlowNode => {
    if (node.type !== 'handler') return node;
    const found = progress.nodes.get(node.id);
    const run = {
      status: found?.status ?? 'pending',
      visits: found?.visits ?? 0,
      retries: found?.retries ?? 0,
    };
    const old = before.get(node.id);
    if (
      old !== undefined &&
      old.type === 'handler' &&
      old.data.node === node.data.node &&
      old.position === node.position &&
      old.data.run?.status === run.status &&
      old.data.run.visits === run.visits &&
      old.data.run.retries === run.retries
    ) {
      return old;
    }
    return { ...node, data: { ...node.data, run } };
  });

  let latestSeq = 0;
  for (const taken of progress.edges.values()) latestSeq = Math.max(latestSeq, taken.lastSeq);
  const siblings = new Map<string, number>();
  for (const edge of flow.edges) {
    if (edge.data === undefined) continue;
    const key = edgeKey(edge.data.edge.from, edge.data.edge.to);
    siblings.set(key, (siblings.get(key) ?? 0) + 1);
  }
  const oldEdges = new Map<string, WorkflowFlowEdge>();
  for (const edge of previous?.edges ?? []) oldEdges.set(edge.id, edge);
  const edges = flow.edges.map((edge): WorkflowFlowEdge => {
    const data = edge.data;
    if (data === undefined) return edge;
    const key = edgeKey(data.edge.from, data.edge.to);
    const taken = progress.edges.get(key);
    const mark =
      taken !== undefined && isTakenEdge(edge, taken, siblings.get(key) ?? 1)
        ? { reason: taken.reason, count: taken.count, latest: taken.lastSeq === latestSeq }
        : undefined;
    const old = oldEdges.get(edge.id);
    if (
      old?.data !== undefined &&
      old.data.edge === data.edge &&
      old.data.route === data.route &&
      old.data.run?.reason === mark?.reason &&
      old.data.run?.count === mark?.count &&
      old.data.run?.latest === mark?.latest
    ) {
      return old;
    }
    if (mark === undefined) return edge;
    return { ...edge, data: { ...data, run: mark } };
  });
  const same = <T,>(now: readonly T[], before: readonly T[] | undefined) =>
    before !== undefined && now.length === before.length && now.every((item, i) => item === before[i]);
  if (previous !== undefined && same(nodes, previous.nodes) && same(edges, previous.edges)) return previous;
  return { ...flow, nodes, edges };
}
