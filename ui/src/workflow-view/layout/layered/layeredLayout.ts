import type { WorkflowFlow } from '../../flow/flowTypes';
import { withPlacement, type FlowPlacement } from './flowPlacement';
import { HIGH_BORDER, isBorder, LOW_BORDER, NODE } from './layering';
import { place, type Placement } from './layeredPlace';
import { routeEdges } from './layeredRoutes';
import { Frame } from '../fold/frame';
import { packFlow, type PackedFlow } from './packedFlow';

/**
 * Every handler node's and box's screen box (x, y, width, height at `4 * index`, by the flow's
 * node index; NaN for a node without one), before moving the drawing to 0,0.
 */
function screenBoxes(p: Placement, frame: Frame, nodeCount: number): Float64Array {
  const boxes = new Float64Array(nodeCount * 4).fill(Number.NaN);
  const { layering, input } = p;
  const { count, kind } = layering;
  for (let i = 0; i < count; i++) {
    if (kind[i] !== NODE) continue;
    const n = layering.source[i] ?? 0;
    const c = p.cross[i] ?? 0;
    const a = p.along[i] ?? 0;
    const half = (input.nodeCross[n] ?? 0) / 2;
    const halfAlong = (input.nodeAlong[n] ?? 0) / 2;
    frame.boxToScreen(a - halfAlong, a + halfAlong, c - half, c + half, boxes, 4 * (input.nodeIndex[n] ?? 0));
  }
  const { clusters } = input;
  if (clusters.length === 0) return boxes;
  // Across: between the box's borders. Along: its items' extent and its room at each end.
  const crossSpans = clusters.map(() => ({ low: Infinity, high: -Infinity }));
  const alongSpans = clusters.map(() => ({ low: Infinity, high: -Infinity }));
  for (let i = 0; i < count; i++) {
    const across = crossSpans[layering.cluster[i] ?? -1];
    if (kind[i] === LOW_BORDER && across !== undefined) across.low = Math.min(across.low, p.cross[i] ?? 0);
    if (kind[i] === HIGH_BORDER && across !== undefined) across.high = Math.max(across.high, p.cross[i] ?? 0);
    if (isBorder(kind[i])) continue;
    const path = clusters[layering.cluster[i] ?? -1]?.path ?? [];
    let low = (p.along[i] ?? 0) - (layering.along[i] ?? 0) / 2;
    let high = (p.along[i] ?? 0) + (layering.along[i] ?? 0) / 2;
    for (let d = path.length - 1; d >= 0; d--) {
      const cluster = clusters[path[d] ?? 0];
      const span = alongSpans[path[d] ?? 0];
      if (cluster === undefined || span === undefined) continue;
      low -= cluster.alongLow;
      high += cluster.alongHigh;
      span.low = Math.min(span.low, low);
      span.high = Math.max(span.high, high);
    }
  }
  clusters.forEach((cluster, c) => {
    const cs = crossSpans[c];
    const as = alongSpans[c];
    if (cs === undefined || as === undefined || !Number.isFinite(cs.low) || !Number.isFinite(as.low)) return;
    frame.boxToScreen(as.low, as.high, cs.low, cs.high, boxes, 4 * cluster.index);
  });
  return boxes;
}

/**
 * Lays a packed flow out with Heddle's own layered engine: ranks by longest path, orders ranks
 * by barycentre sweeps keeping boxes together, places each rank by isotonic regression towards
 * its neighbours, and routes edges as polylines through their bends. Returns where every node
 * and edge went (a handler keeps its size; a box gets the size of what it holds), the drawing's
 * top-left corner at the origin.
 */
export function layeredPlacement(flow: PackedFlow): FlowPlacement {
  const nodeCount = flow.boxes.length;
  const edgeCount = flow.sources.length;
  const placement = place(flow);
  const frame = new Frame(flow.direction);
  const boxes = screenBoxes(placement, frame, nodeCount);
  const routes = routeEdges(placement, flow.shapes, frame, boxes);
  // Move the drawing so its top-left corner is at the origin.
  let left = Infinity;
  let top = Infinity;
  for (let i = 0; i < nodeCount; i++) {
    const x = boxes[4 * i] ?? Number.NaN;
    if (Number.isNaN(x)) continue;
    left = Math.min(left, x);
    top = Math.min(top, boxes[4 * i + 1] ?? 0);
  }
  const { points } = routes;
  for (let i = 0; i < points.length; i++) {
    left = Math.min(left, points.x(i));
    top = Math.min(top, points.y(i));
  }
  for (let e = 0; e < placement.input.edgeCount; e++) {
    const x = routes.labels[2 * e] ?? Number.NaN;
    if (Number.isNaN(x)) continue;
    left = Math.min(left, x);
    top = Math.min(top, routes.labels[2 * e + 1] ?? 0);
  }
  if (!Number.isFinite(left)) left = 0;
  if (!Number.isFinite(top)) top = 0;

  const positions = new Float64Array(nodeCount * 2);
  const sizes = new Float64Array(nodeCount * 2).fill(Number.NaN);
  for (let i = 0; i < nodeCount; i++) {
    const x = boxes[4 * i] ?? Number.NaN;
    if (Number.isNaN(x)) {
      positions[2 * i] = flow.positions[2 * i] ?? 0;
      positions[2 * i + 1] = flow.positions[2 * i + 1] ?? 0;
      continue;
    }
    const y = boxes[4 * i + 1] ?? 0;
    // React Flow positions a child relative to its parent's top-left corner.
    const parent = flow.parents[i] ?? -1;
    const parentX = parent < 0 ? Number.NaN : (boxes[4 * parent] ?? Number.NaN);
    if (Number.isNaN(parentX)) {
      positions[2 * i] = x - left;
      positions[2 * i + 1] = y - top;
    } else {
      positions[2 * i] = x - parentX;
      positions[2 * i + 1] = y - (boxes[4 * parent + 1] ?? 0);
    }
    if (flow.boxes[i] === 1) {
      sizes[2 * i] = boxes[4 * i + 2] ?? 0;
      sizes[2 * i + 1] = boxes[4 * i + 3] ?? 0;
    }
  }

  // Each layout edge by the flow's edge index; only edges with data get their route.
  const layoutEdge = new Int32Array(edgeCount).fill(-1);
  for (let e = 0; e < placement.input.edgeCount; e++) {
    const index = placement.input.edgeIndex[e] ?? 0;
    if (routes.routed[e] === 1 && flow.withData[index] === 1) layoutEdge[index] = e;
  }
  let pointCount = 0;
  for (let i = 0; i < edgeCount; i++) {
    const e = layoutEdge[i] ?? -1;
    if (e >= 0) pointCount += (routes.ends[e] ?? 0) - (e === 0 ? 0 : (routes.ends[e - 1] ?? 0));
  }
  const routeEnds = new Int32Array(edgeCount);
  const routePoints = new Float64Array(pointCount * 2);
  const labelCentres = new Float64Array(edgeCount * 2).fill(Number.NaN);
  let at = 0;
  for (let i = 0; i < edgeCount; i++) {
    const e = layoutEdge[i] ?? -1;
    if (e < 0) {
      routeEnds[i] = -1;
      continue;
    }
    const end = routes.ends[e] ?? 0;
    for (let q = e === 0 ? 0 : (routes.ends[e - 1] ?? 0); q < end; q++) {
      routePoints[2 * at] = points.x(q) - left;
      routePoints[2 * at + 1] = points.y(q) - top;
      at++;
    }
    routeEnds[i] = at;
    const labelled = !Number.isNaN(flow.labels[2 * i] ?? Number.NaN) && !Number.isNaN(flow.labels[2 * i + 1] ?? Number.NaN);
    const x = routes.labels[2 * e] ?? Number.NaN;
    if (labelled && !Number.isNaN(x)) {
      labelCentres[2 * i] = x - left;
      labelCentres[2 * i + 1] = (routes.labels[2 * e + 1] ?? 0) - top;
    }
  }
  return { positions, sizes, routeEnds, routePoints, labelCentres };
}

/**
 * Lays a flow out with Heddle's own layered engine (`layeredPlacement`), in the page: no worker
 * and no wasm to start, so a large graph is drawn at once.
 */
export function layoutLayered(flow: WorkflowFlow): WorkflowFlow {
  return withPlacement(flow, layeredPlacement(packFlow(flow)));
}
