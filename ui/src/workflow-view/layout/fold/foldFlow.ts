/**
 * Folds a long laid-out flow to the canvas's shape, as text wraps into lines: its ranks are
 * cut (between ranks, never through a node, a box or a label) into bands that each keep the
 * flow's direction, stacked across it (a left-to-right chain becomes rows read left to right,
 * top to bottom; a top-down one columns read left to right). An edge that runs from one band
 * into another leaves its band past the end, runs along the gap between the bands in a lane of
 * its own, and enters the next band from its start, as a wrapped line of text continues.
 * Works on any engine's result: it moves top-level nodes and re-routes edge polylines.
 */
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../../flow/flowTypes';
import type { Point } from '../../look/shapeGeometry';
import { Frame, type FrameBox, type FramePoint } from './frame';
import { BAND_GAP, BAND_MARGIN, LANE, bandExtents, bandOf, planFold } from './foldPlan';

/** The canvas the flow will be shown on, in pixels, less the room fitting leaves round it. */
export interface FoldRoom {
  width: number;
  height: number;
  /** The zoom worth folding for: folding further than needed to reach it gains nothing. */
  maxZoom: number;
  /** A drawing that fits unfolded at this zoom or more is not folded. */
  readableZoom: number;
}

function nodeSize(node: WorkflowFlowNode): { width: number; height: number } {
  return node.type === 'subgraph' ? { width: node.width ?? 0, height: node.height ?? 0 } : node.data.box;
}

/** Where each band goes: how far it is shifted along and across. */
interface BandPlace {
  extent: FrameBox;
  alongShift: number;
  crossShift: number;
}

/** An edge segment that crosses from one band into another, and its lane between bands. */
interface Crossing {
  edge: string;
  segment: number;
  from: number;
  to: number;
  gap: number;
  lane: number;
  order: number;
}

/** Removes repeated points and points in the middle of a straight run. */
export function simplifyRoute(route: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const p of route) {
    const last = out[out.length - 1];
    if (last !== undefined && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue;
    const before = out[out.length - 2];
    if (before !== undefined && last !== undefined) {
      const straight =
        (Math.abs(before.x - last.x) < 0.01 && Math.abs(last.x - p.x) < 0.01) ||
        (Math.abs(before.y - last.y) < 0.01 && Math.abs(last.y - p.y) < 0.01);
      const turnsBack = straight && ((last.x - before.x) * (p.x - last.x) < 0 || (last.y - before.y) * (p.y - last.y) < 0);
      if (straight && !turnsBack) out.pop();
    }
    out.push(p);
  }
  return out;
}

/** `laidOut` folded to `room`, or as it is without one (no canvas measured to fold for). */
export function foldTo(laidOut: WorkflowFlow, room: FoldRoom | null): WorkflowFlow {
  return room === null ? laidOut : foldFlow(laidOut, room);
}

/**
 * `flow` folded into bands that fit `room` best (see the module comment); `flow` itself when
 * it fits as well unfolded. Positions of nodes inside boxes are relative to their box and
 * stay as they are.
 */
export function foldFlow(flow: WorkflowFlow, room: FoldRoom): WorkflowFlow {
  const frame = new Frame(flow.direction);
  const topLevel = flow.nodes.filter((n) => n.parentId === undefined);
  if (topLevel.length < 3) return flow;
  const nodeBoxes = new Map<string, FrameBox>();
  for (const n of topLevel) {
    // Spelled out: spreading boxes of several shapes is a slow path, felt at 20,000 nodes.
    const { width, height } = nodeSize(n);
    nodeBoxes.set(n.id, frame.boxToFrame({ x: n.position.x, y: n.position.y, width, height }));
  }
  const labelBoxes = new Map<string, FrameBox>();
  const routes = new Map<string, FramePoint[]>();
  for (const edge of flow.edges) {
    const data = edge.data;
    if (data === undefined) continue;
    if (data.route !== null) routes.set(edge.id, data.route.map((p) => frame.toFrame(p)));
    if (data.labelCenter !== null && data.labelBox !== null) {
      const { x, y } = data.labelCenter;
      const { width, height } = data.labelBox;
      labelBoxes.set(edge.id, frame.boxToFrame({ x: x - width / 2, y: y - height / 2, width, height }));
    }
  }
  const solids = [...nodeBoxes.values(), ...labelBoxes.values()];
  const points = [...routes.values()].flat();
  const cuts = planFold(solids, points, frame.canvas(room.width, room.height), {
    max: room.maxZoom,
    readable: room.readableZoom,
  });
  if (cuts.length === 0) return flow;

  // Which segments cross bands (by edge, then segment), and the lane each takes in the gap it runs along.
  const crossings = new Map<string, Map<number, Crossing>>();
  let crossingCount = 0;
  const lanesPerGap = new Array<number>(cuts.length).fill(0);
  for (const [id, route] of routes) {
    let bandAt = route[0] === undefined ? 0 : bandOf(cuts, route[0].along);
    route.forEach((_, i) => {
      const q = route[i + 1];
      if (q === undefined) return;
      const from = bandAt;
      const to = bandOf(cuts, q.along);
      bandAt = to;
      if (from === to) return;
      // Forward it runs along the gap after the band it leaves, backward the gap after the one it enters.
      const gap = Math.min(from, to);
      const lane = lanesPerGap[gap] ?? 0;
      lanesPerGap[gap] = lane + 1;
      const ofEdge = crossings.get(id) ?? new Map<number, Crossing>();
      crossings.set(id, ofEdge);
      ofEdge.set(i, { edge: id, segment: i, from, to, gap, lane, order: crossingCount++ });
    });
  }

  const extents = bandExtents(solids, points, cuts);
  // Where each band's first solid starts.
  const firstSolids = extents.map(() => Infinity);
  for (const s of solids) {
    const b = bandOf(cuts, (s.alongLow + s.alongHigh) / 2);
    firstSolids[b] = Math.min(firstSolids[b] ?? Infinity, s.alongLow);
  }
  const places: BandPlace[] = [];
  let crossAt = 0;
  extents.forEach((extent, b) => {
    // Each band starts at its first solid, so the bands line up at their start.
    const firstSolid = firstSolids[b] ?? Infinity;
    const alongShift = Number.isFinite(firstSolid) ? firstSolid : extent.alongLow;
    places.push({ extent, alongShift, crossShift: crossAt - extent.crossLow });
    const lanes = lanesPerGap[b] ?? 0;
    crossAt += extent.crossHigh - extent.crossLow + BAND_GAP + Math.max(0, lanes - 1) * LANE;
  });
  const placeOf = (band: number): BandPlace => places[band] ?? { extent: extents[0] as FrameBox, alongShift: 0, crossShift: 0 };
  const move = (p: FramePoint): FramePoint => {
    const place = placeOf(bandOf(cuts, p.along));
    return { along: p.along - place.alongShift, cross: p.cross + place.crossShift };
  };
  const bandStart = (b: number) => placeOf(b).extent.alongLow - placeOf(b).alongShift;
  const bandEnd = (b: number) => placeOf(b).extent.alongHigh - placeOf(b).alongShift;
  const laneCross = (gap: number, lane: number) => {
    const place = placeOf(gap);
    const gapStart = place.extent.crossHigh + place.crossShift;
    const lanes = lanesPerGap[gap] ?? 1;
    return gapStart + (BAND_GAP + Math.max(0, lanes - 1) * LANE) / 2 - ((lanes - 1) * LANE) / 2 + lane * LANE;
  };

  /** The way from p (in band `c.from`) to q (in band `c.to`), both already moved. */
  const connector = (c: Crossing, p: FramePoint, q: FramePoint): FramePoint[] => {
    const margin = BAND_MARGIN + c.order * (LANE / 2);
    const lane = laneCross(c.gap, c.lane);
    const forward = c.to > c.from;
    const leaveAt = forward ? bandEnd(c.from) + margin : bandStart(c.from) - margin;
    const enterAt = forward ? bandStart(c.to) - margin : bandEnd(c.to) + margin;
    return [
      { along: leaveAt, cross: p.cross },
      { along: leaveAt, cross: lane },
      { along: enterAt, cross: lane },
      { along: enterAt, cross: q.cross },
    ];
  };

  const placeNode = (node: WorkflowFlowNode): WorkflowFlowNode => {
    const box = nodeBoxes.get(node.id);
    if (box === undefined) return node;
    const place = placeOf(bandOf(cuts, (box.alongLow + box.alongHigh) / 2));
    const moved = frame.boxToScreen({
      alongLow: box.alongLow - place.alongShift,
      alongHigh: box.alongHigh - place.alongShift,
      crossLow: box.crossLow + place.crossShift,
      crossHigh: box.crossHigh + place.crossShift,
    });
    return { ...node, position: { x: moved.x, y: moved.y } };
  };
  const placeEdge = (edge: WorkflowFlowEdge): WorkflowFlowEdge => {
    const data = edge.data;
    if (data === undefined) return edge;
    const route = routes.get(edge.id);
    let folded: Point[] | null = data.route;
    if (route !== undefined) {
      const out: FramePoint[] = [];
      const crossed = crossings.get(edge.id);
      route.forEach((p, i) => {
        const at = move(p);
        out.push(at);
        const q = route[i + 1];
        const crossing = crossed?.get(i);
        if (q !== undefined && crossing !== undefined) out.push(...connector(crossing, at, move(q)));
      });
      folded = simplifyRoute(out.map((p) => frame.toScreen(p)));
    }
    const label = labelBoxes.get(edge.id);
    const labelCenter =
      label === undefined || data.labelCenter === null
        ? data.labelCenter
        : frame.toScreen(move(frame.toFrame(data.labelCenter)));
    return { ...edge, data: { ...data, route: folded, labelCenter } };
  };
  return { ...flow, nodes: flow.nodes.map(placeNode), edges: flow.edges.map(placeEdge) };
}
