/**
 * A laid-out flow's geometry as a few typed arrays: what the layered engine and the fold make
 * (in the page, or in a web worker whose answer then comes back without copying tens of
 * thousands of objects), and what the page puts on its own flow (`withPlacement`).
 */
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../../flow/flowTypes';
import type { Point } from '../../look/shapeGeometry';

/** Where every node and edge of a flow went, in the flow's own order of nodes and edges. */
export interface FlowPlacement {
  /** x, y of each node (relative to its box's corner when it sits in one). */
  positions: Float64Array;
  /** width, height of each node the layout sized (subgraph boxes); NaN for the others. */
  sizes: Float64Array;
  /** Where each edge's route ends in `routePoints`, counted in points; -1 for no route. */
  routeEnds: Int32Array;
  /** x, y of every route's points, one route after another. */
  routePoints: Float64Array;
  /** x, y of each edge's label centre; NaN for none. */
  labelCentres: Float64Array;
}

/** The buffers of a placement, to hand to `postMessage` as transferables. */
export function placementBuffers(placement: FlowPlacement): ArrayBuffer[] {
  const { positions, sizes, routeEnds, routePoints, labelCentres } = placement;
  return [positions, sizes, routeEnds, routePoints, labelCentres].map((array) => array.buffer as ArrayBuffer);
}

/** Reads the placement out of a laid-out flow. */
export function placementOf(flow: WorkflowFlow): FlowPlacement {
  const positions = new Float64Array(flow.nodes.length * 2);
  const sizes = new Float64Array(flow.nodes.length * 2).fill(Number.NaN);
  flow.nodes.forEach((node, i) => {
    positions[2 * i] = node.position.x;
    positions[2 * i + 1] = node.position.y;
    if (node.width !== undefined && node.height !== undefined) {
      sizes[2 * i] = node.width;
      sizes[2 * i + 1] = node.height;
    }
  });
  let pointCount = 0;
  for (const edge of flow.edges) pointCount += edge.data?.route?.length ?? 0;
  const routeEnds = new Int32Array(flow.edges.length);
  const routePoints = new Float64Array(pointCount * 2);
  const labelCentres = new Float64Array(flow.edges.length * 2).fill(Number.NaN);
  let at = 0;
  flow.edges.forEach((edge, e) => {
    const route = edge.data?.route ?? null;
    if (route === null) {
      routeEnds[e] = -1;
    } else {
      for (const point of route) {
        routePoints[2 * at] = point.x;
        routePoints[2 * at + 1] = point.y;
        at++;
      }
      routeEnds[e] = at;
    }
    const centre = edge.data?.labelCenter ?? null;
    if (centre !== null) {
      labelCentres[2 * e] = centre.x;
      labelCentres[2 * e + 1] = centre.y;
    }
  });
  return { positions, sizes, routeEnds, routePoints, labelCentres };
}

function placeNode(node: WorkflowFlowNode, i: number, placement: FlowPlacement): WorkflowFlowNode {
  const position = { x: placement.positions[2 * i] ?? 0, y: placement.positions[2 * i + 1] ?? 0 };
  const width = placement.sizes[2 * i] ?? Number.NaN;
  const height = placement.sizes[2 * i + 1] ?? Number.NaN;
  if (Number.isNaN(width) || Number.isNaN(height)) return { ...node, position };
  return { ...node, position, width, height };
}

function placeEdge(edge: WorkflowFlowEdge, e: number, routeStart: number, placement: FlowPlacement): WorkflowFlowEdge {
  if (edge.data === undefined) return edge;
  const end = placement.routeEnds[e] ?? -1;
  let route: Point[] | null = null;
  if (end >= 0) {
    route = [];
    for (let p = routeStart; p < end; p++) route.push({ x: placement.routePoints[2 * p] ?? 0, y: placement.routePoints[2 * p + 1] ?? 0 });
  }
  const x = placement.labelCentres[2 * e] ?? Number.NaN;
  const y = placement.labelCentres[2 * e + 1] ?? Number.NaN;
  const labelCenter = Number.isNaN(x) || Number.isNaN(y) ? null : { x, y };
  return { ...edge, data: { ...edge.data, route, labelCenter } };
}

/**
 * `flow` with `placement` applied: each node at its position (a box at its size too), each
 * edge with data along its route (none where `routeEnds` says -1) with its label centre.
 * A placement made from `packFlow(flow)` gives the flow that layout stands for.
 */
export function withPlacement(flow: WorkflowFlow, placement: FlowPlacement): WorkflowFlow {
  if (placement.positions.length !== flow.nodes.length * 2 || placement.routeEnds.length !== flow.edges.length) {
    throw new Error(`a layout of ${placement.positions.length / 2} nodes and ${placement.routeEnds.length} edges cannot be put on a flow of ${flow.nodes.length} and ${flow.edges.length}`);
  }
  let routeStart = 0;
  const edges = flow.edges.map((edge, e) => {
    const placed = placeEdge(edge, e, routeStart, placement);
    const end = placement.routeEnds[e] ?? -1;
    if (end >= 0) routeStart = end;
    return placed;
  });
  return { ...flow, nodes: flow.nodes.map((node, i) => placeNode(node, i, placement)), edges };
}
