import { getViewportForBounds, type FitViewOptions, type Viewport } from '@xyflow/react';
import type { WorkflowFlowNode } from '../flow/flowTypes';

/** Fit with room at the top for the workflow summary card (px on each side). */
export const FIT_PADDING = { top: '116px', right: '48px', bottom: '48px', left: '48px' } as const;
export const FIT_MAX_ZOOM = 1.1;

/** React Flow's fit (the zoom button, a refit): the same room; hidden nodes (a sketch's) count. */
export const FIT_VIEW: FitViewOptions = { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, includeHiddenNodes: true };

/**
 * The viewport that fits every top-level node of a laid-out flow into a `width` × `height`
 * pane, as React Flow's own fit would once it had measured the nodes: known before the first
 * render, so the canvas is drawn at its final zoom straight away (and big graphs as sketches).
 */
export function fitViewport(nodes: readonly WorkflowFlowNode[], width: number, height: number, minZoom: number): Viewport {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const node of nodes) {
    if (node.parentId !== undefined) continue;
    const w = node.type === 'subgraph' ? (node.width ?? 0) : node.data.box.width;
    const h = node.type === 'subgraph' ? (node.height ?? 0) : node.data.box.height;
    left = Math.min(left, node.position.x);
    top = Math.min(top, node.position.y);
    right = Math.max(right, node.position.x + w);
    bottom = Math.max(bottom, node.position.y + h);
  }
  if (!Number.isFinite(left) || width <= 0 || height <= 0) return { x: 0, y: 0, zoom: 1 };
  return getViewportForBounds({ x: left, y: top, width: right - left, height: bottom - top }, width, height, minZoom, FIT_MAX_ZOOM, FIT_PADDING);
}
