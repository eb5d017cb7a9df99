import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../../flow/flowTypes';
import { outlineAnchor, type Point, type Side } from '../../look/shapeGeometry';
import { graphvizEdgeSides, type GraphvizInput } from './graphvizDot';
import type { GraphvizPlacement, PlacedBox } from './graphvizJson';

/** Every canvas node's box in drawing coordinates, by canvas id. */
function absoluteBoxes(input: GraphvizInput, placement: GraphvizPlacement): Map<string, PlacedBox> {
  const boxes = new Map<string, PlacedBox>();
  for (const [name, id] of input.nodes) {
    const box = placement.nodes[name];
    if (box !== undefined) boxes.set(id, box);
  }
  for (const [name, id] of input.clusters) {
    const box = placement.clusters[name];
    if (box !== undefined) boxes.set(id, box);
  }
  return boxes;
}

function placeNode(node: WorkflowFlowNode, boxes: Map<string, PlacedBox>): WorkflowFlowNode {
  const box = boxes.get(node.id);
  if (box === undefined) return node;
  // React Flow positions a child relative to its parent's top-left corner.
  const parent = node.parentId === undefined ? undefined : boxes.get(node.parentId);
  const position = { x: box.x - (parent?.x ?? 0), y: box.y - (parent?.y ?? 0) };
  if (node.type === 'subgraph') return { ...node, position, width: box.width, height: box.height };
  return { ...node, position };
}

/** Where an edge meets `node`'s outline on `side`, in drawing coordinates. */
function anchorOf(node: WorkflowFlowNode | undefined, box: PlacedBox | undefined, side: Side): Point | null {
  if (node === undefined || box === undefined || node.type !== 'handler') return null;
  const at = outlineAnchor(node.data.look.shape, box.width, box.height, side);
  return { x: box.x + at.x, y: box.y + at.y };
}

/**
 * Graphviz ends edges at the middle of a box's side; the drawn outline can sit a little
 * inside that (a tab's top, a parallelogram's slanted sides). Moves the route's ends onto it.
 */
function snapEnds(route: Point[], from: Point | null, to: Point | null): Point[] {
  const snapped = [...route];
  if (from !== null) snapped[0] = from;
  if (to !== null) snapped[snapped.length - 1] = to;
  return snapped;
}

/**
 * Copies a Graphviz layout onto the flow, like `applyLayout` does for ELK: handler nodes and
 * boxes positioned relative to their parent box, boxes sized, edges given their route and
 * label centre in flow coordinates. Elements Graphviz did not return stay as they were.
 */
export function applyGraphvizPlacement(
  flow: WorkflowFlow,
  input: GraphvizInput,
  placement: GraphvizPlacement,
): WorkflowFlow {
  const boxes = absoluteBoxes(input, placement);
  const byId = new Map(flow.nodes.map((n) => [n.id, n]));
  const edgeNames = new Map([...input.edges].map(([name, id]) => [id, name]));
  const placeEdge = (edge: WorkflowFlowEdge): WorkflowFlowEdge => {
    const name = edgeNames.get(edge.id);
    const placed = name === undefined ? undefined : placement.edges[name];
    if (placed === undefined || edge.data === undefined) return edge;
    const sides = graphvizEdgeSides(flow.direction, input.backEdges.has(edge.id));
    const from = anchorOf(byId.get(edge.source), boxes.get(edge.source), sides.source);
    const to = anchorOf(byId.get(edge.target), boxes.get(edge.target), sides.target);
    const route = snapEnds(placed.route, from, to);
    const labelCenter = edge.data.labelBox === null ? null : placed.labelCenter;
    return { ...edge, data: { ...edge.data, route, labelCenter } };
  };
  return {
    ...flow,
    nodes: flow.nodes.map((n) => placeNode(n, boxes)),
    edges: flow.edges.map(placeEdge),
  };
}
