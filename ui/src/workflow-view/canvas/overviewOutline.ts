import type { WorkflowFlowNode } from '../flow/flowTypes';
import type { Bounds } from './fitViewport';
import { nodePlaces } from './viewportWindow';

/**
 * The overview of a very large graph as one SVG path, made at the overview's own
 * resolution: the drawing is cut into cells a screen pixel of the overview wide, a cell any
 * handler node's box touches is filled, and the filled cells are written as rectangles (runs
 * along a row, rows with the same runs joined). A 20,000-node chain is then a few hundred
 * rectangles rather than 20,000 (which the browser painted again each time the view's frame
 * moved over them), and looks the same: its boxes are smaller than a pixel there.
 * The path is in flow coordinates; `bounds` is the box round every node.
 */
export type OverviewOutline = { path: string; bounds: Bounds | null };

/** The overview's drawing area, in screen pixels. */
export type OverviewSize = { width: number; height: number };

/** The overview's size on screen. */
export const OVERVIEW_SIZE: OverviewSize = { width: 176, height: 124 };

/** Rounded to a tenth of a flow unit: the overview is a couple of hundred pixels wide. */
function short(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** The box round all of `nodePlaces`' boxes; null without nodes. */
function boundsOf(boxes: Float64Array): Bounds | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (let at = 0; at < boxes.length; at += 4) {
    left = Math.min(left, boxes[at] ?? Infinity);
    top = Math.min(top, boxes[at + 1] ?? Infinity);
    right = Math.max(right, boxes[at + 2] ?? -Infinity);
    bottom = Math.max(bottom, boxes[at + 3] ?? -Infinity);
  }
  return Number.isFinite(left) ? { x: left, y: top, width: right - left, height: bottom - top } : null;
}

/** The filled runs `[from, to)` of row `row` of a `columns`-wide grid, as a flat list. */
function rowRuns(grid: Uint8Array, columns: number, row: number): number[] {
  const runs: number[] = [];
  let c = 0;
  while (c < columns) {
    if (grid[row * columns + c] === 0) {
      c++;
      continue;
    }
    const from = c;
    while (c < columns && grid[row * columns + c] === 1) c++;
    runs.push(from, c);
  }
  return runs;
}

function sameRuns(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The outline of `nodes` (parents precede their children, as in a flow) for an overview of `size`. */
export function overviewOutline(nodes: readonly WorkflowFlowNode[], size: OverviewSize = OVERVIEW_SIZE): OverviewOutline {
  const boxes = nodePlaces(nodes).nodeBoxes;
  const bounds = boundsOf(boxes);
  if (bounds === null) return { path: '', bounds };
  // Flow units per cell: one overview pixel at the scale the overview shows the drawing.
  const cell = Math.max(bounds.width / size.width, bounds.height / size.height, Number.MIN_VALUE);
  const columns = Math.max(1, Math.ceil(bounds.width / cell));
  const rows = Math.max(1, Math.ceil(bounds.height / cell));
  const grid = new Uint8Array(columns * rows);
  const first = (at: number, count: number) => Math.min(count - 1, Math.max(0, Math.floor(at / cell)));
  // The last cell a box ending at `end` covers: one ending on a cell's start covers none of it.
  const last = (end: number, count: number) => Math.min(count - 1, Math.ceil(end / cell) - 1);
  nodes.forEach((node, i) => {
    if (node.type !== 'handler') return;
    const c0 = first((boxes[i * 4] ?? 0) - bounds.x, columns);
    const c1 = Math.max(c0, last((boxes[i * 4 + 2] ?? 0) - bounds.x, columns));
    const r0 = first((boxes[i * 4 + 1] ?? 0) - bounds.y, rows);
    const r1 = Math.max(r0, last((boxes[i * 4 + 3] ?? 0) - bounds.y, rows));
    for (let r = r0; r <= r1; r++) grid.fill(1, r * columns + c0, r * columns + c1 + 1);
  });
  const parts: string[] = [];
  const close = (runs: readonly number[], top: number, bottom: number) => {
    for (let k = 0; k < runs.length; k += 2) {
      const from = runs[k] ?? 0;
      const width = ((runs[k + 1] ?? from) - from) * cell;
      parts.push(`M${short(bounds.x + from * cell)} ${short(bounds.y + top * cell)}h${short(width)}v${short((bottom - top) * cell)}h${short(-width)}z`);
    }
  };
  let open: number[] = [];
  let openedAt = 0;
  for (let r = 0; r < rows; r++) {
    const runs = rowRuns(grid, columns, r);
    if (sameRuns(runs, open)) continue;
    close(open, openedAt, r);
    open = runs;
    openedAt = r;
  }
  close(open, openedAt, rows);
  return { path: parts.join(''), bounds };
}
