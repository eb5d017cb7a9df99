/**
 * Which of a very large flow's elements React Flow is given: those near the view. React Flow
 * keeps every node it is given in its store and goes over all of them on each change (adding a
 * 20,000-node run's graph took it over half a second, and its selectors as long again), so a
 * huge graph hands it a window round the view, a view's size beyond it on every side, and a
 * new window only once the view leaves it. Pure geometry in flow coordinates.
 */
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../flow/flowTypes';
import { sizeOf, type Bounds } from './fitViewport';

/** From this many nodes on, React Flow is given only the elements near the view. */
export const WINDOWED_FROM = 1000;

/** Every element's box in flow coordinates (`left, top, right, bottom` at `4 * index`), once per flow. */
export interface FlowPlaces {
  flow: WorkflowFlow;
  nodeBoxes: Float64Array;
  edgeBoxes: Float64Array;
  /** Each node's index in `flow.nodes`, by id. */
  nodeIndex: Map<string, number>;
}

function widen(boxes: Float64Array, at: number, left: number, top: number, right: number, bottom: number): void {
  if (left < (boxes[at] ?? Infinity)) boxes[at] = left;
  if (top < (boxes[at + 1] ?? Infinity)) boxes[at + 1] = top;
  if (right > (boxes[at + 2] ?? -Infinity)) boxes[at + 2] = right;
  if (bottom > (boxes[at + 3] ?? -Infinity)) boxes[at + 3] = bottom;
}

/** Every node's box in flow coordinates (`left, top, right, bottom` at `4 * index`), and each node's index by id. */
export interface NodePlaces {
  nodeBoxes: Float64Array;
  nodeIndex: Map<string, number>;
}

const placed = new WeakMap<readonly WorkflowFlowNode[], NodePlaces>();

/**
 * The boxes of `nodes` (children placed within their parents), worked out once per list of
 * nodes: the canvas's window and the overview both read them.
 */
export function nodePlaces(nodes: readonly WorkflowFlowNode[]): NodePlaces {
  const known = placed.get(nodes);
  if (known !== undefined) return known;
  const nodeIndex = new Map<string, number>();
  const nodeBoxes = new Float64Array(nodes.length * 4);
  // Parents precede their children.
  nodes.forEach((node, i) => {
    nodeIndex.set(node.id, i);
    const parent = node.parentId === undefined ? undefined : nodeIndex.get(node.parentId);
    const x = node.position.x + (parent === undefined ? 0 : (nodeBoxes[parent * 4] ?? 0));
    const y = node.position.y + (parent === undefined ? 0 : (nodeBoxes[parent * 4 + 1] ?? 0));
    const { width, height } = sizeOf(node);
    // Written one by one: a small array per node is felt at 20,000 nodes.
    nodeBoxes[i * 4] = x;
    nodeBoxes[i * 4 + 1] = y;
    nodeBoxes[i * 4 + 2] = x + width;
    nodeBoxes[i * 4 + 3] = y + height;
  });
  const places = { nodeBoxes, nodeIndex };
  placed.set(nodes, places);
  return places;
}

/** The boxes of `flow`'s nodes (`nodePlaces`) and of its edges (their route and label, else
 * their two ends). */
export function flowPlaces(flow: WorkflowFlow): FlowPlaces {
  const { nodeBoxes, nodeIndex } = nodePlaces(flow.nodes);
  const edgeBoxes = new Float64Array(flow.edges.length * 4);
  flow.edges.forEach((edge, i) => {
    const at = i * 4;
    edgeBoxes[at] = Infinity;
    edgeBoxes[at + 1] = Infinity;
    edgeBoxes[at + 2] = -Infinity;
    edgeBoxes[at + 3] = -Infinity;
    const data = edge.data;
    for (const p of data?.route ?? []) widen(edgeBoxes, at, p.x, p.y, p.x, p.y);
    if (data?.labelCenter != null && data.labelBox !== null) {
      const { x, y } = data.labelCenter;
      const { width, height } = data.labelBox;
      widen(edgeBoxes, at, x - width / 2, y - height / 2, x + width / 2, y + height / 2);
    }
    if (data?.route != null) return;
    for (const end of [edge.source, edge.target]) {
      const n = nodeIndex.get(end);
      if (n !== undefined) widen(edgeBoxes, at, nodeBoxes[n * 4] ?? 0, nodeBoxes[n * 4 + 1] ?? 0, nodeBoxes[n * 4 + 2] ?? 0, nodeBoxes[n * 4 + 3] ?? 0);
    }
  });
  return { flow, nodeBoxes, edgeBoxes, nodeIndex };
}

/** The part of the flow a `width` × `height` pane shows under `transform` (React Flow's `[x, y, zoom]`). */
export function viewOf(transform: readonly [number, number, number], width: number, height: number): Bounds {
  const [x, y, zoom] = transform;
  return { x: -x / zoom, y: -y / zoom, width: width / zoom, height: height / zoom };
}

/** `view` grown by its own size on every side. */
export function windowAround(view: Bounds): Bounds {
  return { x: view.x - view.width, y: view.y - view.height, width: view.width * 3, height: view.height * 3 };
}

/** A window more than this many times as wide (or tall) as the view is made anew, round it. */
const WIDEST_WINDOW = 5;

/**
 * Whether `area` still serves as the window for `view`: it holds all of it and is not much
 * larger (zoomed in after zooming out, a window round the old view would hold far too much).
 */
export function keepsWindow(area: Bounds, view: Bounds): boolean {
  return holds(area, view) && area.width <= view.width * WIDEST_WINDOW && area.height <= view.height * WIDEST_WINDOW;
}

/** Whether all of `inner` lies in `outer`. */
export function holds(outer: Bounds, inner: Bounds): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

function meets(boxes: Float64Array, i: number, area: Bounds): boolean {
  const at = i * 4;
  return (
    (boxes[at] ?? Infinity) <= area.x + area.width &&
    (boxes[at + 2] ?? -Infinity) >= area.x &&
    (boxes[at + 1] ?? Infinity) <= area.y + area.height &&
    (boxes[at + 3] ?? -Infinity) >= area.y
  );
}

/**
 * The nodes and edges that reach into `area`, in the flow's order: with every edge, its two
 * ends (React Flow draws an edge only between nodes it has), and with every node, the boxes
 * it sits in.
 */
export function elementsIn(places: FlowPlaces, area: Bounds): { nodes: WorkflowFlowNode[]; edges: WorkflowFlowEdge[] } {
  const { flow, nodeBoxes, edgeBoxes, nodeIndex } = places;
  const keep = new Uint8Array(flow.nodes.length);
  const include = (i: number | undefined) => {
    for (let at = i; at !== undefined && keep[at] === 0; ) {
      keep[at] = 1;
      const parent = flow.nodes[at]?.parentId;
      at = parent === undefined ? undefined : nodeIndex.get(parent);
    }
  };
  flow.nodes.forEach((_, i) => {
    if (meets(nodeBoxes, i, area)) include(i);
  });
  const edges = flow.edges.filter((edge, i) => {
    if (!meets(edgeBoxes, i, area)) return false;
    include(nodeIndex.get(edge.source));
    include(nodeIndex.get(edge.target));
    return true;
  });
  return { nodes: flow.nodes.filter((_, i) => keep[i] === 1), edges };
}
