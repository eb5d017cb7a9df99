import { getViewportForBounds, type FitViewOptions, type Viewport } from '@xyflow/react';
import type { WorkflowFlowNode } from '../flow/flowTypes';

/** Room left round a fitted graph, in px on each side. */
export interface FitPadding {
  top: `${number}px`;
  right: `${number}px`;
  bottom: `${number}px`;
  left: `${number}px`;
}

/** Room at each side of a fitted graph; the top also clears the workflow summary card. */
const SIDE = 40;
/** The least room at the top, for the summary card when it has not been measured. */
const TOP = 116;
export const FIT_PADDING: FitPadding = { top: `${TOP}px`, right: `${SIDE}px`, bottom: `${SIDE}px`, left: `${SIDE}px` };
export const FIT_MAX_ZOOM = 1.1;

/** Room round a fitted graph when the cards over the canvas's top reach `topInset` px down. */
export function fitPadding(topInset: number): FitPadding {
  return { ...FIT_PADDING, top: `${Math.max(TOP, Math.round(topInset) + 16)}px` };
}

/** React Flow's fit (the zoom button, a refit) with that room; hidden nodes (a sketch's) count. */
export function fitViewOptions(padding: FitPadding = FIT_PADDING): FitViewOptions {
  return { padding, maxZoom: FIT_MAX_ZOOM, includeHiddenNodes: true };
}

/** A box in flow coordinates. */
export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A node's size as drawn: a box's laid-out size, a handler's own. */
export function sizeOf(node: WorkflowFlowNode): { width: number; height: number } {
  return node.type === 'subgraph' ? { width: node.width ?? 0, height: node.height ?? 0 } : node.data.box;
}

/** The box round every top-level node of a laid-out flow; null when there is none. */
export function drawingBounds(nodes: readonly WorkflowFlowNode[]): Bounds | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const node of nodes) {
    if (node.parentId !== undefined) continue;
    const { width, height } = sizeOf(node);
    left = Math.min(left, node.position.x);
    top = Math.min(top, node.position.y);
    right = Math.max(right, node.position.x + width);
    bottom = Math.max(bottom, node.position.y + height);
  }
  return Number.isFinite(left) ? { x: left, y: top, width: right - left, height: bottom - top } : null;
}

/** Node `id`'s box in flow coordinates (adding its boxes' positions); null when there is none. */
export function nodeBounds(nodes: readonly WorkflowFlowNode[], id: string): Bounds | null {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const node = byId.get(id);
  if (node === undefined) return null;
  let x = node.position.x;
  let y = node.position.y;
  for (let parent = node.parentId; parent !== undefined; ) {
    const box = byId.get(parent);
    if (box === undefined) break;
    x += box.position.x;
    y += box.position.y;
    parent = box.parentId;
  }
  return { x, y, ...sizeOf(node) };
}

/**
 * The viewport that fits every top-level node of a laid-out flow into a `width` × `height`
 * pane, as React Flow's own fit would once it had measured the nodes: known before the first
 * render, so the canvas is drawn at its final zoom straight away.
 */
export function fitViewport(
  nodes: readonly WorkflowFlowNode[],
  width: number,
  height: number,
  minZoom: number,
  padding: FitPadding = FIT_PADDING,
): Viewport {
  const bounds = drawingBounds(nodes);
  if (bounds === null || width <= 0 || height <= 0) return { x: 0, y: 0, zoom: 1 };
  return getViewportForBounds(bounds, width, height, minZoom, FIT_MAX_ZOOM, padding);
}

/**
 * Whether all of `bounds` (flow coordinates) shows on a `width` × `height` pane under
 * `transform` (React Flow's `[x, y, zoom]`); true when there is nothing to show.
 */
export function isWholeInView(bounds: Bounds | null, transform: readonly [number, number, number], width: number, height: number): boolean {
  if (bounds === null) return true;
  const [x, y, zoom] = transform;
  const slack = 1;
  return (
    bounds.x * zoom + x >= -slack &&
    bounds.y * zoom + y >= -slack &&
    (bounds.x + bounds.width) * zoom + x <= width + slack &&
    (bounds.y + bounds.height) * zoom + y <= height + slack
  );
}
