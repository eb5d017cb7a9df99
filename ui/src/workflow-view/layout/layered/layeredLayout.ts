import { edgeSides } from '../../flow/flowDirection';
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../../flow/flowTypes';
import { outlineAnchor, type Point, type Side } from '../../look/shapeGeometry';
import type { PlacedBox } from '../graphviz/graphvizJson';
import { rankCentres, RANK_GAP } from './alongRanks';
import { assignCross } from './coordinates';
import { isVertical, layeredInput, type LayeredInput } from './layeredInput';
import { buildLayering, isBorder, LOOP_REACH, type Layering } from './layering';
import { adjacency, orderLayers } from './ordering';
import { assignRanks } from './ranking';

/** How far a back edge runs out of a node's flank before it turns. */
const BACK_EDGE_CLEARANCE = 14;

/** Where everything went, in layout space (cross, along), before turning it onto the screen. */
interface Placement {
  input: LayeredInput;
  layering: Layering;
  cross: Float64Array;
  along: number[];
}

/** Ranks, orders and places the flow's nodes in layout space. */
function place(flow: WorkflowFlow): Placement {
  const input = layeredInput(flow);
  // As in Graphviz's dot: with any label, every edge spans two ranks, the label taking the middle one.
  const minlen = input.edges.some((e) => e.label !== null) ? 2 : 1;
  const rankEdges = input.edges
    .filter((e) => e.from !== e.to)
    .map((e) => (e.back ? { from: e.to, to: e.from, minlen } : { from: e.from, to: e.to, minlen }));
  const ranks = assignRanks(input.nodes.length, rankEdges);
  const layering = buildLayering(input, ranks);
  const adj = adjacency(layering);
  orderLayers(layering, input.clusters, adj);
  const cross = assignCross(layering, input.clusters, adj);
  const rankAlong = rankCentres(layering, input.clusters, minlen === 2 ? RANK_GAP / 2 : RANK_GAP);
  const along = layering.items.map((item) => rankAlong[item.rank] ?? 0);
  return { input, layering, cross, along };
}

/** Turns layout-space points and boxes onto the screen for the flow's direction. */
class Screen {
  private readonly flip: (p: Point) => Point;

  constructor(direction: WorkflowFlow['direction']) {
    this.flip =
      direction === 'DOWN' ? (p) => ({ x: p.x, y: p.y })
      : direction === 'UP' ? (p) => ({ x: p.x, y: -p.y })
      : direction === 'RIGHT' ? (p) => ({ x: p.y, y: p.x })
      : (p) => ({ x: -p.y, y: p.x });
    this.vertical = isVertical(direction);
  }

  readonly vertical: boolean;

  /** `x` here is the cross coordinate and `y` the along one. */
  point(cross: number, along: number): Point {
    return this.flip({ x: cross, y: along });
  }

  box(crossLow: number, crossHigh: number, alongLow: number, alongHigh: number): PlacedBox {
    const a = this.point(crossLow, alongLow);
    const b = this.point(crossHigh, alongHigh);
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
  }
}

/** Every handler node's and box's screen box, by canvas id (before moving the drawing to 0,0). */
function screenBoxes(p: Placement, screen: Screen): Map<string, PlacedBox> {
  const boxes = new Map<string, PlacedBox>();
  const { items } = p.layering;
  items.forEach((item, i) => {
    if (item.kind !== 'node') return;
    const node = p.input.nodes[item.source];
    const c = p.cross[i] ?? 0;
    const a = p.along[i] ?? 0;
    if (node !== undefined) boxes.set(node.id, screen.box(c - node.cross / 2, c + node.cross / 2, a - node.along / 2, a + node.along / 2));
  });
  // Across: between the box's borders. Along: its items' extent and its room at each end.
  const crossSpans = p.input.clusters.map(() => ({ low: Infinity, high: -Infinity }));
  const alongSpans = p.input.clusters.map(() => ({ low: Infinity, high: -Infinity }));
  items.forEach((item, i) => {
    const across = crossSpans[item.cluster];
    if (item.kind === 'low-border' && across !== undefined) across.low = Math.min(across.low, p.cross[i] ?? 0);
    if (item.kind === 'high-border' && across !== undefined) across.high = Math.max(across.high, p.cross[i] ?? 0);
    if (isBorder(item)) return;
    const path = p.input.clusters[item.cluster]?.path ?? [];
    let low = (p.along[i] ?? 0) - item.along / 2;
    let high = (p.along[i] ?? 0) + item.along / 2;
    for (let d = path.length - 1; d >= 0; d--) {
      const cluster = p.input.clusters[path[d] ?? 0];
      const span = alongSpans[path[d] ?? 0];
      if (cluster === undefined || span === undefined) continue;
      low -= cluster.alongLow;
      high += cluster.alongHigh;
      span.low = Math.min(span.low, low);
      span.high = Math.max(span.high, high);
    }
  });
  p.input.clusters.forEach((cluster, c) => {
    const cs = crossSpans[c];
    const as = alongSpans[c];
    if (cs === undefined || as === undefined || !Number.isFinite(cs.low) || !Number.isFinite(as.low)) return;
    boxes.set(cluster.id, screen.box(cs.low, cs.high, as.low, as.high));
  });
  return boxes;
}

function anchor(node: WorkflowFlowNode | undefined, box: PlacedBox | undefined, side: Side): Point | null {
  if (node === undefined || box === undefined || node.type !== 'handler') return null;
  const at = outlineAnchor(node.data.look.shape, box.width, box.height, side);
  return { x: box.x + at.x, y: box.y + at.y };
}

/** The flank a back edge or loop leaves and enters by: the side its bends lie on. */
function flank(screen: Screen, towardsHigh: boolean): Side {
  if (screen.vertical) return towardsHigh ? 'right' : 'left';
  return towardsHigh ? 'bottom' : 'top';
}

/**
 * The route with a step in the middle of every slanted leg (across the flow, halfway along
 * it), so edges run straight along and across like the ELK canvas's instead of diagonally.
 */
export function orthogonal(route: readonly Point[], vertical: boolean): Point[] {
  const out: Point[] = [];
  route.forEach((point, i) => {
    const before = route[i - 1];
    if (before !== undefined && Math.abs(point.x - before.x) > 0.5 && Math.abs(point.y - before.y) > 0.5) {
      if (vertical) {
        const y = (before.y + point.y) / 2;
        out.push({ x: before.x, y }, { x: point.x, y });
      } else {
        const x = (before.x + point.x) / 2;
        out.push({ x, y: before.y }, { x, y: point.y });
      }
    }
    out.push(point);
  });
  return out;
}

/** Each edge's route and label centre on the screen. */
function routes(p: Placement, flow: WorkflowFlow, screen: Screen, boxes: Map<string, PlacedBox>): Map<string, { route: Point[]; labelCenter: Point | null }> {
  const byId = new Map(flow.nodes.map((n) => [n.id, n]));
  const forward = edgeSides(flow.direction);
  const result = new Map<string, { route: Point[]; labelCenter: Point | null }>();
  p.input.edges.forEach((edge, e) => {
    const fromNode = p.input.nodes[edge.from];
    const toNode = p.input.nodes[edge.to];
    if (fromNode === undefined || toNode === undefined) return;
    const source = byId.get(fromNode.id);
    const target = byId.get(toNode.id);
    const chain = p.layering.chains[e] ?? [];
    const centre = (item: number) => screen.point(p.cross[item] ?? 0, p.along[item] ?? 0);
    const labelItem = chain.find((item) => p.layering.items[item]?.kind === 'label');
    let labelCenter = labelItem === undefined ? null : centre(labelItem);
    let route: Point[];
    if (edge.from === edge.to) {
      const item = edge.from;
      const side = flank(screen, true);
      const at = anchor(source, boxes.get(fromNode.id), side);
      if (at === null) return;
      const c = p.cross[item] ?? 0;
      const a = p.along[item] ?? 0;
      const out = c + fromNode.cross / 2 + LOOP_REACH - 6;
      const spread = Math.min(12, fromNode.along / 3);
      route = [at, screen.point(out, a - spread), screen.point(out, a + spread), at];
      if (edge.label !== null) labelCenter = screen.point(out + 4 + edge.label.cross / 2, a);
    } else if (!edge.back) {
      const from = anchor(source, boxes.get(fromNode.id), forward.source);
      const to = anchor(target, boxes.get(toNode.id), forward.target);
      if (from === null || to === null) return;
      route = [from, ...chain.slice(1, -1).map(centre), to];
    } else {
      // Laid out reversed: the chain runs from the edge's target (upper) to its source (lower).
      const bends = chain.slice(1, -1).reverse();
      const sourceItem = chain[chain.length - 1] ?? edge.from;
      const targetItem = chain[0] ?? edge.to;
      const firstBend = bends[0];
      const lastBend = bends[bends.length - 1];
      const sourceCross = p.cross[sourceItem] ?? 0;
      const targetCross = p.cross[targetItem] ?? 0;
      const outerCross = Math.max(sourceCross + fromNode.cross / 2, targetCross + toNode.cross / 2) + LOOP_REACH;
      const leaveCross = firstBend === undefined ? outerCross : (p.cross[firstBend] ?? 0);
      const enterCross = lastBend === undefined ? outerCross : (p.cross[lastBend] ?? 0);
      const leaveHigh = leaveCross >= sourceCross;
      const enterHigh = enterCross >= targetCross;
      const from = anchor(source, boxes.get(fromNode.id), flank(screen, leaveHigh));
      const to = anchor(target, boxes.get(toNode.id), flank(screen, enterHigh));
      if (from === null || to === null) return;
      // Out of the flank first, clear of the node, then along the bends.
      const clear = (cross: number, centreCross: number, half: number, high: boolean) =>
        high ? Math.max(cross, centreCross + half + BACK_EDGE_CLEARANCE) : Math.min(cross, centreCross - half - BACK_EDGE_CLEARANCE);
      // Beside the node it turns along the flow, and only crosses over at the first bend's
      // rank (outside the node's), so no step lands on the node itself.
      const leaveAt = clear(leaveCross, sourceCross, fromNode.cross / 2, leaveHigh);
      const enterAt = clear(enterCross, targetCross, toNode.cross / 2, enterHigh);
      const middle =
        firstBend === undefined || lastBend === undefined
          ? []
          : [screen.point(leaveAt, p.along[firstBend] ?? 0), ...bends.map(centre), screen.point(enterAt, p.along[lastBend] ?? 0)];
      route = [from, screen.point(leaveAt, p.along[sourceItem] ?? 0), ...middle, screen.point(enterAt, p.along[targetItem] ?? 0), to];
    }
    result.set(edge.id, { route: orthogonal(route, screen.vertical), labelCenter });
  });
  return result;
}

/**
 * Lays a flow out with Heddle's own layered engine, in the page: no worker and no wasm to
 * start, so a large graph is drawn at once. Ranks by longest path, orders ranks by barycentre
 * sweeps keeping boxes together, places each rank by isotonic regression towards its
 * neighbours, and routes edges as polylines through their bends.
 */
export function layoutLayered(flow: WorkflowFlow): WorkflowFlow {
  const placement = place(flow);
  const screen = new Screen(flow.direction);
  const boxes = screenBoxes(placement, screen);
  const edgeRoutes = routes(placement, flow, screen, boxes);
  // Move the drawing so its top-left corner is at the origin.
  let left = Infinity;
  let top = Infinity;
  for (const box of boxes.values()) {
    left = Math.min(left, box.x);
    top = Math.min(top, box.y);
  }
  for (const { route, labelCenter } of edgeRoutes.values()) {
    for (const point of route) {
      left = Math.min(left, point.x);
      top = Math.min(top, point.y);
    }
    if (labelCenter !== null) {
      left = Math.min(left, labelCenter.x);
      top = Math.min(top, labelCenter.y);
    }
  }
  if (!Number.isFinite(left)) left = 0;
  if (!Number.isFinite(top)) top = 0;
  const shift = (point: Point): Point => ({ x: point.x - left, y: point.y - top });
  const placeNode = (node: WorkflowFlowNode): WorkflowFlowNode => {
    const box = boxes.get(node.id);
    if (box === undefined) return node;
    // React Flow positions a child relative to its parent's top-left corner.
    const parent = node.parentId === undefined ? undefined : boxes.get(node.parentId);
    const position = parent === undefined ? shift(box) : { x: box.x - parent.x, y: box.y - parent.y };
    if (node.type === 'subgraph') return { ...node, position, width: box.width, height: box.height };
    return { ...node, position };
  };
  const placeEdge = (edge: WorkflowFlowEdge): WorkflowFlowEdge => {
    const placed = edgeRoutes.get(edge.id);
    if (placed === undefined || edge.data === undefined) return edge;
    const labelCenter = edge.data.labelBox === null || placed.labelCenter === null ? null : shift(placed.labelCenter);
    return { ...edge, data: { ...edge.data, route: placed.route.map(shift), labelCenter } };
  };
  return { ...flow, nodes: flow.nodes.map(placeNode), edges: flow.edges.map(placeEdge) };
}
