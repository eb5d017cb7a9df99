import type { Point } from '../look/shapeGeometry';

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/**
 * SVG path through `points` with each bend rounded by up to `radius` (less where the
 * segments are short), as for orthogonal ELK routes.
 */
export function roundedPolylinePath(points: readonly Point[], radius: number): string {
  const first = points[0];
  if (first === undefined) return '';
  const parts = [`M${fmt(first.x)},${fmt(first.y)}`];
  for (let i = 1; i < points.length; i += 1) {
    const corner = points[i];
    const prev = points[i - 1];
    const next = points[i + 1];
    if (corner === undefined || prev === undefined) continue;
    if (next === undefined) {
      parts.push(`L${fmt(corner.x)},${fmt(corner.y)}`);
      continue;
    }
    const inLength = Math.hypot(corner.x - prev.x, corner.y - prev.y);
    const outLength = Math.hypot(next.x - corner.x, next.y - corner.y);
    const r = Math.min(radius, inLength / 2, outLength / 2);
    if (r <= 0 || inLength === 0 || outLength === 0) {
      parts.push(`L${fmt(corner.x)},${fmt(corner.y)}`);
      continue;
    }
    const before = {
      x: corner.x - ((corner.x - prev.x) * r) / inLength,
      y: corner.y - ((corner.y - prev.y) * r) / inLength,
    };
    const after = {
      x: corner.x + ((next.x - corner.x) * r) / outLength,
      y: corner.y + ((next.y - corner.y) * r) / outLength,
    };
    parts.push(`L${fmt(before.x)},${fmt(before.y)}`);
    parts.push(`Q${fmt(corner.x)},${fmt(corner.y)} ${fmt(after.x)},${fmt(after.y)}`);
  }
  return parts.join(' ');
}

/** The point halfway along a polyline, by length. */
export function polylineMidpoint(points: readonly Point[]): Point | null {
  const segments: { from: Point; to: Point; length: number }[] = [];
  for (let i = 1; i < points.length; i += 1) {
    const from = points[i - 1];
    const to = points[i];
    if (from !== undefined && to !== undefined) {
      segments.push({ from, to, length: Math.hypot(to.x - from.x, to.y - from.y) });
    }
  }
  if (segments.length === 0) return points[0] ?? null;
  let remaining = segments.reduce((sum, s) => sum + s.length, 0) / 2;
  for (const s of segments) {
    if (remaining <= s.length && s.length > 0) {
      const t = remaining / s.length;
      return { x: s.from.x + (s.to.x - s.from.x) * t, y: s.from.y + (s.to.y - s.from.y) * t };
    }
    remaining -= s.length;
  }
  return segments[segments.length - 1]?.to ?? null;
}
