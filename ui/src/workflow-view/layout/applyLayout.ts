import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../flow/flowTypes';
import type { Point } from '../look/shapeGeometry';

interface PlacedBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every ELK node's box, relative to its parent (as ELK reports shapes). */
function collectBoxes(node: ElkNode, into: Map<string, PlacedBox>): Map<string, PlacedBox> {
  for (const child of node.children ?? []) {
    into.set(child.id, {
      x: child.x ?? 0,
      y: child.y ?? 0,
      width: child.width ?? 0,
      height: child.height ?? 0,
    });
    collectBoxes(child, into);
  }
  return into;
}

/** Every edge in the result, wherever ELK left it. */
function collectEdges(node: ElkNode, into: Map<string, ElkExtendedEdge>): Map<string, ElkExtendedEdge> {
  for (const edge of node.edges ?? []) into.set(edge.id, edge);
  for (const child of node.children ?? []) collectEdges(child, into);
  return into;
}

/** The polyline of an edge's sections, joined, without repeated points. */
export function edgeRoute(edge: ElkExtendedEdge): Point[] | null {
  const points: Point[] = [];
  for (const section of edge.sections ?? []) {
    for (const pt of [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]) {
      const last = points[points.length - 1];
      if (last === undefined || last.x !== pt.x || last.y !== pt.y) points.push({ x: pt.x, y: pt.y });
    }
  }
  return points.length >= 2 ? points : null;
}

function labelCenter(edge: ElkExtendedEdge): Point | null {
  const label = edge.labels?.[0];
  if (label === undefined || label.x === undefined || label.y === undefined) return null;
  return { x: label.x + (label.width ?? 0) / 2, y: label.y + (label.height ?? 0) / 2 };
}

function placeNode(node: WorkflowFlowNode, box: PlacedBox | undefined): WorkflowFlowNode {
  if (box === undefined) return node;
  const position = { x: box.x, y: box.y };
  if (node.type === 'subgraph') {
    return { ...node, position, width: box.width, height: box.height };
  }
  return { ...node, position };
}

function placeEdge(edge: WorkflowFlowEdge, laidOut: ElkExtendedEdge | undefined): WorkflowFlowEdge {
  if (laidOut === undefined || edge.data === undefined) return edge;
  return {
    ...edge,
    data: { ...edge.data, route: edgeRoute(laidOut), labelCenter: labelCenter(laidOut) },
  };
}

/**
 * Copies an ELK result onto the flow: node positions relative to their parent box (what
 * React Flow expects for `parentId` children), box sizes for subgraphs, and each edge's
 * route and label centre in flow (root) coordinates. Elements ELK did not return stay as
 * they were.
 */
export function applyLayout(flow: WorkflowFlow, result: ElkNode): WorkflowFlow {
  const boxes = collectBoxes(result, new Map());
  const edges = collectEdges(result, new Map());
  return {
    ...flow,
    nodes: flow.nodes.map((n) => placeNode(n, boxes.get(n.id))),
    edges: flow.edges.map((e) => placeEdge(e, edges.get(e.id))),
  };
}
