import type { Viewport } from '@xyflow/react';
import type { WorkflowFlowNode } from '../flow/flowTypes';
import { drawingBounds, FIT_PADDING, fitViewport, nodeBounds, type FitPadding } from './fitViewport';

/**
 * A graph that fits at this zoom or more opens fitted, all of it in view: its 13px node labels
 * are drawn at 8px or more, small but legible. Below it the graph cannot be read whole (and
 * is folded to the canvas's shape first, see `layout/fold`).
 */
export const WHOLE_READABLE_ZOOM = 0.6;

/**
 * The zoom a graph too large to read whole opens at: labels drawn at about 10px, easy to read,
 * around its start (the minimap shows the whole; the fit button shows it all at once).
 */
export const READABLE_ZOOM = 0.8;

const px = (value: string) => parseFloat(value);

/**
 * Where the canvas opens: fitted when the whole graph fits at `WHOLE_READABLE_ZOOM` or more;
 * otherwise at `READABLE_ZOOM`, centred on node `focus` (the selection, else the start node) but pushed
 * back so no more empty space shows beyond the drawing's edges than the fit's padding, so
 * the view shows as much of the graph as it can around the focus.
 */
export function openingViewport(
  nodes: readonly WorkflowFlowNode[],
  width: number,
  height: number,
  focus: string | null,
  minZoom: number,
  padding: FitPadding = FIT_PADDING,
): Viewport {
  const fitted = fitViewport(nodes, width, height, minZoom, padding);
  const bounds = drawingBounds(nodes);
  if (fitted.zoom >= WHOLE_READABLE_ZOOM || bounds === null || width <= 0 || height <= 0) return fitted;
  const zoom = READABLE_ZOOM;
  const around = (focus === null ? null : nodeBounds(nodes, focus)) ?? bounds;
  /** One axis: the translation centring `centre`, clamped to the drawing's extent. */
  const axis = (centre: number, low: number, size: number, pane: number, padLow: number, padHigh: number) => {
    const room = pane - padLow - padHigh;
    if (size * zoom <= room) return padLow + (room - size * zoom) / 2 - low * zoom;
    const centred = pane / 2 - centre * zoom;
    const leftmost = pane - padHigh - (low + size) * zoom;
    const rightmost = padLow - low * zoom;
    return Math.min(rightmost, Math.max(leftmost, centred));
  };
  return {
    x: axis(around.x + around.width / 2, bounds.x, bounds.width, width, px(padding.left), px(padding.right)),
    y: axis(around.y + around.height / 2, bounds.y, bounds.height, height, px(padding.top), px(padding.bottom)),
    zoom,
  };
}

/** The node a canvas opens around: the selected node, else the (first) start node. */
export function openingFocus(nodes: readonly WorkflowFlowNode[], selected: string | null): string | null {
  if (selected !== null && nodes.some((n) => n.id === selected)) return selected;
  const start = nodes.find((n) => n.type === 'handler' && n.data.node.kind === 'start');
  return start?.id ?? nodes.find((n) => n.type === 'handler')?.id ?? null;
}
