/**
 * Folds a long laid-out flow to the canvas's shape, as text wraps into lines: its ranks are
 * cut (between ranks, never through a node, a box or a label) into bands that each keep the
 * flow's direction, stacked across it (a left-to-right chain becomes rows read left to right,
 * top to bottom; a top-down one columns read left to right). An edge that runs from one band
 * into another leaves its band past the end, runs along the gap between the bands in a lane of
 * its own, and enters the next band from its start, as a wrapped line of text continues.
 * Works on any engine's result: it moves top-level nodes and re-routes edge polylines. The
 * work is done on a placement's flat arrays (`foldPlacement`), so the layered engine's worker
 * folds what it laid out without making an object per node or point.
 */
import type { FlowDirection } from '../../flow/flowDirection';
import type { WorkflowFlow } from '../../flow/flowTypes';
import { placementOf, withPlacement, type FlowPlacement } from '../layered/flowPlacement';
import { packFlow, TOP_LEVEL, type PackedFlow } from '../layered/packedFlow';
import { PointList } from '../pointList';
import { Frame } from './frame';
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

/** What the fold reads of a flow besides where its nodes and edges are (its placement). */
export interface FoldShape {
  direction: FlowDirection;
  /**
   * Each node's parent box, as `PackedFlow.parents` has it: only nodes at the top level
   * (`TOP_LEVEL`) are moved; one whose parent id names no node (`NO_SUCH_PARENT`) stays put.
   */
  parents: Int32Array;
  /** width, height of each node as drawn. */
  sizes: Float64Array;
  /** 1 for an edge with data (its route and label are folded), 0 without. */
  withData: Uint8Array;
  /** width, height of each edge's label chip; NaN without one. */
  labels: Float64Array;
}

/** An edge segment that crosses from one band into another, and its lane between bands. */
interface Crossing {
  from: number;
  to: number;
  gap: number;
  lane: number;
  order: number;
}

/** Within 0.01 of each other. */
function same(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.01;
}

/** Appends `route` to `out` without repeated points and points in the middle of a straight run. */
export function appendSimplified(route: PointList, out: PointList): void {
  const start = out.length;
  for (let i = 0; i < route.length; i++) {
    const x = route.x(i);
    const y = route.y(i);
    const last = out.length - 1;
    if (last >= start && same(out.x(last), x) && same(out.y(last), y)) continue;
    if (last - 1 >= start) {
      const bx = out.x(last - 1);
      const by = out.y(last - 1);
      const lx = out.x(last);
      const ly = out.y(last);
      const straight = (same(bx, lx) && same(lx, x)) || (same(by, ly) && same(ly, y));
      const turnsBack = straight && ((lx - bx) * (x - lx) < 0 || (ly - by) * (y - ly) < 0);
      if (straight && !turnsBack) out.pop();
    }
    out.push(x, y);
  }
}

/**
 * What the fold reads of a flow packed as `flow` and laid out as `placement`, besides the
 * placement itself: each box at its laid-out size (or the size it had, or none), each handler
 * at its own.
 */
export function foldShape(flow: PackedFlow, placement: FlowPlacement): FoldShape {
  const sizes = new Float64Array(flow.sizes.length);
  for (let i = 0; i < flow.boxes.length; i++) {
    let width = flow.sizes[2 * i] ?? Number.NaN;
    let height = flow.sizes[2 * i + 1] ?? Number.NaN;
    if (flow.boxes[i] === 1) {
      const laidWidth = placement.sizes[2 * i] ?? Number.NaN;
      const laidHeight = placement.sizes[2 * i + 1] ?? Number.NaN;
      if (!Number.isNaN(laidWidth) && !Number.isNaN(laidHeight)) {
        width = laidWidth;
        height = laidHeight;
      }
    }
    sizes[2 * i] = Number.isNaN(width) ? 0 : width;
    sizes[2 * i + 1] = Number.isNaN(height) ? 0 : height;
  }
  return { direction: flow.direction, parents: flow.parents, sizes, withData: flow.withData, labels: flow.labels };
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
  const placement = placementOf(flow);
  const folded = foldPlacement(foldShape(packFlow(flow), placement), placement, room);
  return folded === null ? flow : withPlacement(flow, folded);
}

/** `placement` (of a flow of `shape`) folded to `room`; null when it is best left as it is. */
export function foldPlacement(shape: FoldShape, placement: FlowPlacement, room: FoldRoom): FlowPlacement | null {
  const frame = new Frame(shape.direction);
  const nodeCount = shape.parents.length;
  const edgeCount = shape.withData.length;
  let topLevel = 0;
  for (let i = 0; i < nodeCount; i++) if (shape.parents[i] === TOP_LEVEL) topLevel++;
  if (topLevel < 3) return null;
  const { positions, routeEnds, routePoints, labelCentres } = placement;
  const labelled = (e: number) =>
    shape.withData[e] === 1 &&
    !Number.isNaN(labelCentres[2 * e] ?? Number.NaN) &&
    !Number.isNaN(shape.labels[2 * e] ?? Number.NaN) &&
    !Number.isNaN(shape.labels[2 * e + 1] ?? Number.NaN);
  let labelCount = 0;
  for (let e = 0; e < edgeCount; e++) if (labelled(e)) labelCount++;
  // Solids: the top-level nodes, then the labels.
  const solids = new Float64Array(4 * (topLevel + labelCount));
  const nodeSolid = new Int32Array(nodeCount).fill(-1);
  const labelSolid = new Int32Array(edgeCount).fill(-1);
  let solid = 0;
  for (let i = 0; i < nodeCount; i++) {
    if (shape.parents[i] !== TOP_LEVEL) continue;
    const x = positions[2 * i] ?? 0;
    const y = positions[2 * i + 1] ?? 0;
    frame.boxToFrame(x, y, shape.sizes[2 * i] ?? 0, shape.sizes[2 * i + 1] ?? 0, solids, 4 * solid);
    nodeSolid[i] = solid++;
  }
  for (let e = 0; e < edgeCount; e++) {
    if (!labelled(e)) continue;
    const width = shape.labels[2 * e] ?? 0;
    const height = shape.labels[2 * e + 1] ?? 0;
    const x = (labelCentres[2 * e] ?? 0) - width / 2;
    const y = (labelCentres[2 * e + 1] ?? 0) - height / 2;
    frame.boxToFrame(x, y, width, height, solids, 4 * solid);
    labelSolid[e] = solid++;
  }
  // Route points in the frame, edge after edge; each edge's first point and end (-1: no route).
  const routeStart = new Int32Array(edgeCount).fill(-1);
  const routeEnd = new Int32Array(edgeCount).fill(-1);
  let pointCount = 0;
  let at = 0;
  for (let e = 0; e < edgeCount; e++) {
    const end = routeEnds[e] ?? -1;
    if (end < 0) continue;
    if (shape.withData[e] === 1) {
      routeStart[e] = at;
      routeEnd[e] = end;
      pointCount += end - at;
    }
    at = end;
  }
  const points = new Float64Array(2 * pointCount);
  const pointAt = new Int32Array(edgeCount);
  let filled = 0;
  for (let e = 0; e < edgeCount; e++) {
    pointAt[e] = filled;
    for (let q = routeStart[e] ?? 0; q < (routeEnd[e] ?? -1); q++) {
      const x = routePoints[2 * q] ?? 0;
      const y = routePoints[2 * q + 1] ?? 0;
      points[2 * filled] = frame.along(x, y);
      points[2 * filled + 1] = frame.cross(x, y);
      filled++;
    }
  }
  const cuts = planFold(solids, points, frame.canvas(room.width, room.height), {
    max: room.maxZoom,
    readable: room.readableZoom,
  });
  if (cuts.length === 0) return null;

  // Which segments cross bands (by the point they start at), and the lane each takes in the gap it runs along.
  const crossings = new Map<number, Crossing>();
  let crossingCount = 0;
  const lanesPerGap = new Array<number>(cuts.length).fill(0);
  for (let e = 0; e < edgeCount; e++) {
    if ((routeStart[e] ?? -1) < 0) continue;
    const first = pointAt[e] ?? 0;
    const until = first + (routeEnd[e] ?? 0) - (routeStart[e] ?? 0);
    let bandAt = until > first ? bandOf(cuts, points[2 * first] ?? 0) : 0;
    for (let q = first; q + 1 < until; q++) {
      const from = bandAt;
      const to = bandOf(cuts, points[2 * (q + 1)] ?? 0);
      bandAt = to;
      if (from === to) continue;
      // Forward it runs along the gap after the band it leaves, backward the gap after the one it enters.
      const gap = Math.min(from, to);
      const lane = lanesPerGap[gap] ?? 0;
      lanesPerGap[gap] = lane + 1;
      crossings.set(q, { from, to, gap, lane, order: crossingCount++ });
    }
  }

  const extents = bandExtents(solids, points, cuts);
  const bandCount = extents.length / 4;
  const alongLow = (b: number) => extents[4 * b] ?? 0;
  const alongHigh = (b: number) => extents[4 * b + 1] ?? 0;
  const crossLow = (b: number) => extents[4 * b + 2] ?? 0;
  const crossHigh = (b: number) => extents[4 * b + 3] ?? 0;
  // Where each band's first solid starts.
  const firstSolids = new Float64Array(bandCount).fill(Infinity);
  for (let s = 0; s < solid; s++) {
    const b = bandOf(cuts, ((solids[4 * s] ?? 0) + (solids[4 * s + 1] ?? 0)) / 2);
    firstSolids[b] = Math.min(firstSolids[b] ?? Infinity, solids[4 * s] ?? 0);
  }
  // How far each band is shifted along and across.
  const alongShift = new Float64Array(bandCount);
  const crossShift = new Float64Array(bandCount);
  let crossAt = 0;
  for (let b = 0; b < bandCount; b++) {
    // Each band starts at its first solid, so the bands line up at their start.
    const firstSolid = firstSolids[b] ?? Infinity;
    alongShift[b] = Number.isFinite(firstSolid) ? firstSolid : alongLow(b);
    crossShift[b] = crossAt - crossLow(b);
    const lanes = lanesPerGap[b] ?? 0;
    crossAt += crossHigh(b) - crossLow(b) + BAND_GAP + Math.max(0, lanes - 1) * LANE;
  }
  const bandStart = (b: number) => alongLow(b) - (alongShift[b] ?? 0);
  const bandEnd = (b: number) => alongHigh(b) - (alongShift[b] ?? 0);
  const laneCross = (gap: number, lane: number) => {
    const gapStart = crossHigh(gap) + (crossShift[gap] ?? 0);
    const lanes = lanesPerGap[gap] ?? 1;
    return gapStart + (BAND_GAP + Math.max(0, lanes - 1) * LANE) / 2 - ((lanes - 1) * LANE) / 2 + lane * LANE;
  };
  const route = new PointList();
  /** Adds frame point (along, cross), moved with its band, to `route` on the screen; returns its band. */
  const pushMoved = (along: number, cross: number): number => {
    const b = bandOf(cuts, along);
    const movedAlong = along - (alongShift[b] ?? 0);
    const movedCross = cross + (crossShift[b] ?? 0);
    route.push(frame.x(movedAlong, movedCross), frame.y(movedAlong, movedCross));
    return b;
  };
  const pushFrame = (along: number, cross: number) => route.push(frame.x(along, cross), frame.y(along, cross));
  /** The way from p (in band `c.from`, moved: `pCross`) to q (in band `c.to`, moved: `qCross`). */
  const connector = (c: Crossing, pCross: number, qCross: number) => {
    const margin = BAND_MARGIN + c.order * (LANE / 2);
    const lane = laneCross(c.gap, c.lane);
    const forward = c.to > c.from;
    const leaveAt = forward ? bandEnd(c.from) + margin : bandStart(c.from) - margin;
    const enterAt = forward ? bandStart(c.to) - margin : bandEnd(c.to) + margin;
    pushFrame(leaveAt, pCross);
    pushFrame(leaveAt, lane);
    pushFrame(enterAt, lane);
    pushFrame(enterAt, qCross);
  };

  const moved = new Float64Array(positions);
  for (let i = 0; i < nodeCount; i++) {
    const s = nodeSolid[i] ?? -1;
    if (s < 0) continue;
    const low = solids[4 * s] ?? 0;
    const high = solids[4 * s + 1] ?? 0;
    const b = bandOf(cuts, (low + high) / 2);
    const aAlong = low - (alongShift[b] ?? 0);
    const bAlong = high - (alongShift[b] ?? 0);
    const aCross = (solids[4 * s + 2] ?? 0) + (crossShift[b] ?? 0);
    const bCross = (solids[4 * s + 3] ?? 0) + (crossShift[b] ?? 0);
    moved[2 * i] = Math.min(frame.x(aAlong, aCross), frame.x(bAlong, bCross));
    moved[2 * i + 1] = Math.min(frame.y(aAlong, aCross), frame.y(bAlong, bCross));
  }

  const out = new PointList();
  const foldedEnds = new Int32Array(edgeCount).fill(-1);
  const foldedLabels = new Float64Array(labelCentres);
  for (let e = 0; e < edgeCount; e++) {
    if ((labelSolid[e] ?? -1) >= 0) {
      const x = labelCentres[2 * e] ?? 0;
      const y = labelCentres[2 * e + 1] ?? 0;
      route.clear();
      pushMoved(frame.along(x, y), frame.cross(x, y));
      foldedLabels[2 * e] = route.x(0);
      foldedLabels[2 * e + 1] = route.y(0);
    }
    if ((routeStart[e] ?? -1) < 0) continue;
    const first = pointAt[e] ?? 0;
    const until = first + (routeEnd[e] ?? 0) - (routeStart[e] ?? 0);
    route.clear();
    for (let q = first; q < until; q++) {
      const along = points[2 * q] ?? 0;
      const cross = points[2 * q + 1] ?? 0;
      const b = pushMoved(along, cross);
      const crossing = q + 1 < until ? crossings.get(q) : undefined;
      if (crossing === undefined) continue;
      const nextAlong = points[2 * (q + 1)] ?? 0;
      const nextCross = points[2 * (q + 1) + 1] ?? 0;
      const nextBand = bandOf(cuts, nextAlong);
      connector(crossing, cross + (crossShift[b] ?? 0), nextCross + (crossShift[nextBand] ?? 0));
    }
    appendSimplified(route, out);
    foldedEnds[e] = out.length;
  }
  return { positions: moved, sizes: placement.sizes, routeEnds: foldedEnds, routePoints: out.toArray(), labelCentres: foldedLabels };
}
