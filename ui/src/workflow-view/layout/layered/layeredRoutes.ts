/**
 * The layered engine's edge routes on the screen: polylines from the tail's outline through
 * the edge's bends to the head's, loops back beside the nodes they pass, self-loops out of a
 * node's flank, all with orthogonal steps. Written into one flat list of points.
 */
import { edgeSides } from '../../flow/flowDirection';
import type { NodeShape } from '../../look/handlerLooks';
import { outlineAnchor, type Side } from '../../look/shapeGeometry';
import { isLabelled } from './layeredInput';
import type { Placement } from './layeredPlace';
import type { Frame } from '../fold/frame';
import { PointList } from '../pointList';
import { LABEL, LOOP_REACH } from './layering';

/** How far a back edge runs out of a node's flank before it turns. */
const BACK_EDGE_CLEARANCE = 14;

/** Every layout edge's route and label centre on the screen, before the drawing is moved to 0,0. */
export interface LayeredRoutes {
  /** 1 for each layout edge that was routed. */
  routed: Uint8Array;
  /** Where each layout edge's route ends in `points`, counted in points. */
  ends: Int32Array;
  points: PointList;
  /** x, y of each layout edge's label centre; NaN without one. */
  labels: Float64Array;
}

/** The flank a back edge or loop leaves and enters by: the side its bends lie on. */
function flank(frame: Frame, towardsHigh: boolean): Side {
  if (!frame.horizontal) return towardsHigh ? 'right' : 'left';
  return towardsHigh ? 'bottom' : 'top';
}

/**
 * Each layout edge's route and label centre, given every node's screen box (x, y, width,
 * height at `4 * index` of `boxes`, by the flow's node index; NaN for none) and outline.
 */
export function routeEdges(p: Placement, shapes: readonly NodeShape[], frame: Frame, boxes: Float64Array): LayeredRoutes {
  const { input, layering } = p;
  const { edgeCount } = input;
  const forward = edgeSides(input.direction);
  const routed = new Uint8Array(edgeCount);
  const ends = new Int32Array(edgeCount);
  const labels = new Float64Array(edgeCount * 2).fill(Number.NaN);
  const points = new PointList();
  const route = new PointList();
  const cross = (item: number) => p.cross[item] ?? 0;
  const along = (item: number) => p.along[item] ?? 0;
  /** Adds the point on node `n`'s outline on `side` to `route`; false when the node has no box. */
  const anchor = (n: number, side: Side): boolean => {
    const index = input.nodeIndex[n] ?? 0;
    const at = 4 * index;
    const x = boxes[at] ?? Number.NaN;
    if (Number.isNaN(x)) return false;
    const y = boxes[at + 1] ?? 0;
    const point = outlineAnchor(shapes[index] ?? 'rect', boxes[at + 2] ?? 0, boxes[at + 3] ?? 0, side);
    route.push(x + point.x, y + point.y);
    return true;
  };
  const push = (c: number, a: number) => route.push(frame.x(a, c), frame.y(a, c));
  for (let e = 0; e < edgeCount; e++) {
    ends[e] = points.length;
    const from = input.edgeFrom[e] ?? 0;
    const to = input.edgeTo[e] ?? 0;
    const chainFrom = layering.chainStart[e] ?? 0;
    const chainUntil = layering.chainStart[e + 1] ?? 0;
    let labelItem = -1;
    for (let k = chainFrom; k < chainUntil && labelItem < 0; k++) {
      const item = layering.chainItems[k] ?? 0;
      if (layering.kind[item] === LABEL) labelItem = item;
    }
    let labelCross = labelItem < 0 ? Number.NaN : cross(labelItem);
    let labelAlong = labelItem < 0 ? Number.NaN : along(labelItem);
    route.clear();
    if (from === to) {
      if (!anchor(from, flank(frame, true))) continue;
      const c = cross(from);
      const a = along(from);
      const out = c + (input.nodeCross[from] ?? 0) / 2 + LOOP_REACH - 6;
      const spread = Math.min(12, (input.nodeAlong[from] ?? 0) / 3);
      push(out, a - spread);
      push(out, a + spread);
      route.push(route.x(0), route.y(0));
      if (isLabelled(input, e)) {
        labelCross = out + 4 + (input.labelCross[e] ?? 0) / 2;
        labelAlong = a;
      }
    } else if (input.back[e] !== 1) {
      if (!anchor(from, forward.source)) continue;
      for (let k = chainFrom + 1; k < chainUntil - 1; k++) push(cross(layering.chainItems[k] ?? 0), along(layering.chainItems[k] ?? 0));
      if (!anchor(to, forward.target)) continue;
    } else if (!backRoute(p, e, frame, anchor, push)) {
      continue;
    }
    appendOrthogonal(route, points, !frame.horizontal);
    routed[e] = 1;
    ends[e] = points.length;
    if (!Number.isNaN(labelCross)) {
      labels[2 * e] = frame.x(labelAlong, labelCross);
      labels[2 * e + 1] = frame.y(labelAlong, labelCross);
    }
  }
  return { routed, ends, points, labels };
}

/**
 * The route of edge `e`, laid out reversed (its chain runs from the edge's target, upper, to
 * its source, lower): out of the source's flank, clear of it, along the bends, into the
 * target's flank. False when a node has no box.
 */
function backRoute(
  p: Placement,
  e: number,
  frame: Frame,
  anchor: (node: number, side: Side) => boolean,
  push: (cross: number, along: number) => void,
): boolean {
  const { input, layering } = p;
  const cross = (item: number) => p.cross[item] ?? 0;
  const along = (item: number) => p.along[item] ?? 0;
  const fromNode = input.edgeFrom[e] ?? 0;
  const toNode = input.edgeTo[e] ?? 0;
  const chain = layering.chainItems.subarray(layering.chainStart[e] ?? 0, layering.chainStart[e + 1] ?? 0);
  const bends = Array.from(chain.subarray(1, Math.max(1, chain.length - 1))).reverse();
  const sourceItem = chain[chain.length - 1] ?? fromNode;
  const targetItem = chain[0] ?? toNode;
  const firstBend = bends[0];
  const lastBend = bends[bends.length - 1];
  const sourceCross = cross(sourceItem);
  const targetCross = cross(targetItem);
  const fromHalf = (input.nodeCross[fromNode] ?? 0) / 2;
  const toHalf = (input.nodeCross[toNode] ?? 0) / 2;
  const outerCross = Math.max(sourceCross + fromHalf, targetCross + toHalf) + LOOP_REACH;
  const leaveCross = firstBend === undefined ? outerCross : cross(firstBend);
  const enterCross = lastBend === undefined ? outerCross : cross(lastBend);
  const leaveHigh = leaveCross >= sourceCross;
  const enterHigh = enterCross >= targetCross;
  // Out of the flank first, clear of the node, then along the bends.
  const clear = (at: number, centreCross: number, half: number, high: boolean) =>
    high ? Math.max(at, centreCross + half + BACK_EDGE_CLEARANCE) : Math.min(at, centreCross - half - BACK_EDGE_CLEARANCE);
  // Beside the node it turns along the flow, and only crosses over at the first bend's
  // rank (outside the node's), so no step lands on the node itself.
  const leaveAt = clear(leaveCross, sourceCross, fromHalf, leaveHigh);
  const enterAt = clear(enterCross, targetCross, toHalf, enterHigh);
  if (!anchor(fromNode, flank(frame, leaveHigh))) return false;
  push(leaveAt, along(sourceItem));
  if (firstBend !== undefined && lastBend !== undefined) {
    push(leaveAt, along(firstBend));
    for (const bend of bends) push(cross(bend), along(bend));
    push(enterAt, along(lastBend));
  }
  push(enterAt, along(targetItem));
  return anchor(toNode, flank(frame, enterHigh));
}

/**
 * Appends `route` to `out` with a step in the middle of every slanted leg (across the flow,
 * halfway along it), so edges run straight along and across like the ELK canvas's instead of
 * diagonally.
 */
export function appendOrthogonal(route: PointList, out: PointList, vertical: boolean): void {
  for (let i = 0; i < route.length; i++) {
    const x = route.x(i);
    const y = route.y(i);
    if (i > 0) {
      const bx = route.x(i - 1);
      const by = route.y(i - 1);
      if (Math.abs(x - bx) > 0.5 && Math.abs(y - by) > 0.5) {
        if (vertical) {
          const middle = (by + y) / 2;
          out.push(bx, middle);
          out.push(x, middle);
        } else {
          const middle = (bx + x) / 2;
          out.push(middle, by);
          out.push(middle, y);
        }
      }
    }
    out.push(x, y);
  }
}
