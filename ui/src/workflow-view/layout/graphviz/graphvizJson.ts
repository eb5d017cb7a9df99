import type { Point } from '../../look/shapeGeometry';
import { POINTS_PER_INCH } from './graphvizDot';

/** A box in screen terms: top-left corner, y growing downwards, in pixels (= points). */
export interface PlacedBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where Graphviz put an edge: its path as a polyline and its label's centre, if it has one. */
export interface PlacedEdge {
  route: Point[];
  labelCenter: Point | null;
}

/**
 * A Graphviz layout read into screen coordinates of the whole drawing (origin top-left), keyed
 * by DOT names: node and cluster names, edge `id` attributes.
 */
export interface GraphvizPlacement {
  nodes: Record<string, PlacedBox>;
  clusters: Record<string, PlacedBox>;
  edges: Record<string, PlacedEdge>;
}

/** The parts of Graphviz's `json0` output this reads. */
interface GraphvizJsonObject {
  name?: unknown;
  pos?: unknown;
  width?: unknown;
  height?: unknown;
  bb?: unknown;
}
interface GraphvizJsonEdge {
  id?: unknown;
  pos?: unknown;
  lp?: unknown;
}
interface GraphvizJson {
  bb?: unknown;
  objects?: GraphvizJsonObject[];
  edges?: GraphvizJsonEdge[];
}

function numbers(text: unknown): number[] | null {
  if (typeof text !== 'string') return null;
  const values = text.split(',').map(Number);
  return values.every(Number.isFinite) ? values : null;
}

/** Graphviz's y axis points up; the canvas's points down. Flips within the drawing's box. */
class Flip {
  constructor(
    private readonly left: number,
    private readonly top: number,
  ) {}

  point(x: number, y: number): Point {
    return { x: x - this.left, y: this.top - y };
  }
}

function readBox(bb: unknown, flip: Flip): PlacedBox | null {
  const v = numbers(bb);
  if (v === null || v.length !== 4) return null;
  const [llx = 0, lly = 0, urx = 0, ury = 0] = v;
  const topLeft = flip.point(llx, ury);
  return { x: topLeft.x, y: topLeft.y, width: urx - llx, height: ury - lly };
}

/** A node's box from its centre (`pos`, points) and its size (`width`/`height`, inches). */
function readNodeBox(object: GraphvizJsonObject, flip: Flip): PlacedBox | null {
  const pos = numbers(object.pos);
  const width = Number(object.width) * POINTS_PER_INCH;
  const height = Number(object.height) * POINTS_PER_INCH;
  if (pos === null || pos.length < 2 || !Number.isFinite(width) || !Number.isFinite(height)) return null;
  const centre = flip.point(pos[0] ?? 0, pos[1] ?? 0);
  return { x: centre.x - width / 2, y: centre.y - height / 2, width, height };
}

/** Whether a cubic segment is a straight line (its control points lie on the chord). */
function isStraight(a: Point, c1: Point, c2: Point, b: Point): boolean {
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  const off = (c: Point) =>
    length === 0
      ? Math.hypot(c.x - a.x, c.y - a.y)
      : Math.abs((b.x - a.x) * (a.y - c.y) - (a.x - c.x) * (b.y - a.y)) / length;
  return off(c1) < 0.5 && off(c2) < 0.5;
}

function cubicAt(a: Point, c1: Point, c2: Point, b: Point, t: number): Point {
  const u = 1 - t;
  const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t] as const;
  return {
    x: w[0] * a.x + w[1] * c1.x + w[2] * c2.x + w[3] * b.x,
    y: w[0] * a.y + w[1] * c1.y + w[2] * c2.y + w[3] * b.y,
  };
}

/** Samples per curved segment when turning a B-spline into a polyline. */
const CURVE_SAMPLES = 8;

/**
 * A piecewise cubic B-spline (p0, c, c, p1, c, c, p2, …) as a polyline: straight segments (what
 * `splines=polyline` produces) by their end points, curved ones (self-loops) sampled.
 */
export function splineToPolyline(points: readonly Point[]): Point[] {
  const first = points[0];
  if (first === undefined) return [];
  const out: Point[] = [first];
  for (let i = 0; i + 3 < points.length; i += 3) {
    const [a, c1, c2, b] = [points[i], points[i + 1], points[i + 2], points[i + 3]] as Point[];
    if (a === undefined || c1 === undefined || c2 === undefined || b === undefined) break;
    if (isStraight(a, c1, c2, b)) out.push(b);
    else for (let s = 1; s <= CURVE_SAMPLES; s += 1) out.push(cubicAt(a, c1, c2, b, s / CURVE_SAMPLES));
  }
  return out;
}

function withoutRepeats(points: Point[]): Point[] {
  return points.filter((p, i) => {
    const prev = points[i - 1];
    return prev === undefined || Math.abs(prev.x - p.x) > 0.01 || Math.abs(prev.y - p.y) > 0.01;
  });
}

/**
 * An edge's `pos`: `[s,x,y] [e,x,y] p0 c c p1 …`. The spline stops short of the arrowheads,
 * whose tips are `s` (at the tail) and `e` (at the head); the route runs tip to tip.
 */
function readEdgeRoute(pos: unknown, flip: Flip): Point[] | null {
  if (typeof pos !== 'string') return null;
  let start: Point | null = null;
  let end: Point | null = null;
  const spline: Point[] = [];
  for (const token of pos.trim().split(/\s+/)) {
    const isStart = token.startsWith('s,');
    const isEnd = token.startsWith('e,');
    const v = numbers(isStart || isEnd ? token.slice(2) : token);
    if (v === null || v.length < 2) return null;
    const point = flip.point(v[0] ?? 0, v[1] ?? 0);
    if (isStart) start = point;
    else if (isEnd) end = point;
    else spline.push(point);
  }
  const route = withoutRepeats([
    ...(start === null ? [] : [start]),
    ...splineToPolyline(spline),
    ...(end === null ? [] : [end]),
  ]);
  return route.length >= 2 ? route : null;
}

/**
 * Reads Graphviz's JSON output (`-Tjson0` or `-Tjson`) into screen coordinates: node boxes
 * from centre and size, cluster boxes from `bb`, edge routes and label centres (`lp`), all
 * moved so the drawing's top-left corner is the origin and y grows downwards.
 */
export function readGraphvizJson(json: unknown): GraphvizPlacement {
  const graph = (typeof json === 'object' && json !== null ? json : {}) as GraphvizJson;
  const bb = numbers(graph.bb) ?? [0, 0, 0, 0];
  const flip = new Flip(bb[0] ?? 0, bb[3] ?? 0);
  const placement: GraphvizPlacement = { nodes: {}, clusters: {}, edges: {} };
  for (const object of graph.objects ?? []) {
    if (typeof object.name !== 'string') continue;
    if (object.bb !== undefined) {
      const box = readBox(object.bb, flip);
      if (box !== null) placement.clusters[object.name] = box;
    } else {
      const box = readNodeBox(object, flip);
      if (box !== null) placement.nodes[object.name] = box;
    }
  }
  for (const edge of graph.edges ?? []) {
    if (typeof edge.id !== 'string') continue;
    const route = readEdgeRoute(edge.pos, flip);
    if (route === null) continue;
    const lp = numbers(edge.lp);
    const labelCenter = lp !== null && lp.length >= 2 ? flip.point(lp[0] ?? 0, lp[1] ?? 0) : null;
    placement.edges[edge.id] = { route, labelCenter };
  }
  return placement;
}
