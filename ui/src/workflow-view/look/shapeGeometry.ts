import type { NodeShape } from './handlerLooks';

/** A point in a node's own coordinates (origin at its top-left corner). */
export interface Point {
  x: number;
  y: number;
}

/** Side of a node an edge leaves or enters by. */
export type Side = 'top' | 'right' | 'bottom' | 'left';

const TAB_HEIGHT = 8;
const ROOF_HEIGHT = 14;
const SLANT = 14;

/** The outline's corner points; `null` for the pill, which is drawn with arcs. */
function outlinePolygon(shape: NodeShape, w: number, h: number): Point[] | null {
  switch (shape) {
    case 'pill':
      return null;
    case 'rect':
      return [p(0, 0), p(w, 0), p(w, h), p(0, h)];
    case 'tab': {
      const tab = Math.min(72, w * 0.36);
      return [p(0, 0), p(tab, 0), p(tab + 8, TAB_HEIGHT), p(w, TAB_HEIGHT), p(w, h), p(0, h)];
    }
    case 'parallelogram':
      return [p(SLANT, 0), p(w, 0), p(w - SLANT, h), p(0, h)];
    case 'hexagon': {
      const q = h / 4;
      return [p(q, 0), p(w - q, 0), p(w, h / 2), p(w - q, h), p(q, h), p(0, h / 2)];
    }
    case 'diamond':
      return [p(w / 2, 0), p(w, h / 2), p(w / 2, h), p(0, h / 2)];
    case 'house':
      return [p(0, ROOF_HEIGHT), p(w / 2, 0), p(w, ROOF_HEIGHT), p(w, h), p(0, h)];
  }
}

function p(x: number, y: number): Point {
  return { x, y };
}

const CORNER_RADIUS: Record<NodeShape, number> = {
  pill: 0,
  rect: 10,
  tab: 6,
  parallelogram: 6,
  hexagon: 6,
  diamond: 8,
  house: 6,
};

/** SVG path data of a polygon with rounded corners. */
export function roundedPolygonPath(points: readonly Point[], radius: number): string {
  const n = points.length;
  const parts: string[] = [];
  points.forEach((corner, i) => {
    const prev = points[(i + n - 1) % n] ?? corner;
    const next = points[(i + 1) % n] ?? corner;
    const r = Math.min(radius, dist(prev, corner) / 2, dist(next, corner) / 2);
    const a = towards(corner, prev, r);
    const b = towards(corner, next, r);
    parts.push(`${i === 0 ? 'M' : 'L'}${fmt(a.x)},${fmt(a.y)}`);
    parts.push(`Q${fmt(corner.x)},${fmt(corner.y)} ${fmt(b.x)},${fmt(b.y)}`);
  });
  return `${parts.join(' ')} Z`;
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function towards(from: Point, to: Point, length: number): Point {
  const d = dist(from, to);
  if (d === 0) return from;
  return { x: from.x + ((to.x - from.x) * length) / d, y: from.y + ((to.y - from.y) * length) / d };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/**
 * SVG path data of a node's outline, inset by `inset` pixels (for the stroke), with the box's
 * top-left corner at `origin` (where a drawing of many nodes puts it, without a transform each).
 */
export function outlinePath(shape: NodeShape, w: number, h: number, inset = 0, origin: Point = { x: 0, y: 0 }): string {
  const iw = w - inset * 2;
  const ih = h - inset * 2;
  const polygon = outlinePolygon(shape, iw, ih);
  if (polygon === null) {
    const r = ih / 2;
    const x0 = origin.x + inset;
    const y0 = origin.y + inset;
    return (
      `M${fmt(x0 + r)},${fmt(y0)} H${fmt(x0 + iw - r)} ` +
      `A${fmt(r)},${fmt(r)} 0 0 1 ${fmt(x0 + iw - r)},${fmt(y0 + ih)} ` +
      `H${fmt(x0 + r)} A${fmt(r)},${fmt(r)} 0 0 1 ${fmt(x0 + r)},${fmt(y0)} Z`
    );
  }
  const moved = polygon.map((pt) => ({ x: pt.x + inset + origin.x, y: pt.y + inset + origin.y }));
  return roundedPolygonPath(moved, CORNER_RADIUS[shape]);
}

/** Where an edge meets the outline on `side`: the middle of that side of the drawn shape. */
export function outlineAnchor(shape: NodeShape, w: number, h: number, side: Side): Point {
  switch (side) {
    case 'top':
      return p(w / 2, shape === 'tab' && Math.min(72, w * 0.36) + 8 < w / 2 ? TAB_HEIGHT : 0);
    case 'bottom':
      return p(w / 2, h);
    case 'left':
      return p(shape === 'parallelogram' ? SLANT / 2 : 0, h / 2);
    case 'right':
      return p(shape === 'parallelogram' ? w - SLANT / 2 : w, h / 2);
  }
}

/** Where a node's diagnostics badge sits: on the outline near the top-right. */
export function badgeAnchor(shape: NodeShape, w: number, h: number): Point {
  switch (shape) {
    case 'diamond':
      return p(w * 0.75 - 2, h * 0.25 - 2);
    case 'hexagon':
      return p(w - h / 4, 2);
    case 'pill':
      return p(w - h * 0.2, h * 0.12);
    case 'house':
      return p(w - 4, ROOF_HEIGHT + 2);
    case 'tab':
      return p(w - 4, TAB_HEIGHT + 2);
    case 'parallelogram':
      return p(w - 4, 2);
    case 'rect':
      return p(w - 4, 4);
  }
}
