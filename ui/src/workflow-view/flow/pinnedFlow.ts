/**
 * A laid-out flow with the positions a person pinned by dragging. A moved node's edges lose
 * their layout route (which ran to the old position) and are drawn between the handles
 * instead, with their label chip at the new midpoint.
 */
import { applyPositions, type PinnedPositions, type Point } from '../../editing/positions';
import type { WorkflowFlow, WorkflowFlowEdge } from './flowTypes';

function samePoint(a: Point, b: Point): boolean {
  return a.x === b.x && a.y === b.y;
}

/** Drops the layout route of every edge that touches a node in `moved`. */
export function rerouteEdges(edges: readonly WorkflowFlowEdge[], moved: ReadonlySet<string>): WorkflowFlowEdge[] {
  if (moved.size === 0) return [...edges];
  return edges.map((edge) =>
    edge.data !== undefined && (moved.has(edge.source) || moved.has(edge.target))
      ? { ...edge, data: { ...edge.data, route: null, labelCenter: null } }
      : edge,
  );
}

/**
 * `flow` with handler nodes at their pinned positions (subgraph boxes are not pinned).
 * Returns `flow` itself when no pin changes anything, so memoised drawing is kept.
 */
export function withPinnedPositions(flow: WorkflowFlow, positions: PinnedPositions): WorkflowFlow {
  if (positions.size === 0) return flow;
  const handlers = new Set(flow.nodes.filter((n) => n.type === 'handler').map((n) => n.id));
  const handlerPins = new Map([...positions].filter(([id]) => handlers.has(id)));
  const nodes = applyPositions(flow.nodes, handlerPins);
  const moved = new Set(
    nodes.filter((node, i) => !samePoint(node.position, flow.nodes[i]?.position ?? node.position)).map((n) => n.id),
  );
  if (moved.size === 0) return flow;
  return { ...flow, nodes, edges: rerouteEdges(flow.edges, moved) };
}
