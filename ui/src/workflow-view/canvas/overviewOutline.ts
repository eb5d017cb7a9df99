import type { WorkflowFlowNode } from '../flow/flowTypes';
import type { Bounds } from './fitViewport';

/**
 * The overview of a very large graph as one SVG path: every handler node's box as a
 * rectangle where the layout put it (absolute, in flow coordinates), and the box round them
 * all. One element to draw instead of one per node, so the overview costs a string built
 * once per layout and nothing per pan.
 */
export type OverviewOutline = { path: string; bounds: Bounds | null };

/** Rounded to a tenth of a flow unit: the overview is a couple of hundred pixels wide. */
function short(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** The outline of `nodes` (parents precede their children, as in a flow). */
export function overviewOutline(nodes: readonly WorkflowFlowNode[]): OverviewOutline {
  const at = new Map<string, { x: number; y: number }>();
  const parts: string[] = [];
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const node of nodes) {
    const parent = node.parentId === undefined ? undefined : at.get(node.parentId);
    const x = node.position.x + (parent?.x ?? 0);
    const y = node.position.y + (parent?.y ?? 0);
    at.set(node.id, { x, y });
    const { width, height } = node.type === 'subgraph' ? { width: node.width ?? 0, height: node.height ?? 0 } : node.data.box;
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x + width);
    bottom = Math.max(bottom, y + height);
    if (node.type === 'handler') parts.push(`M${short(x)} ${short(y)}h${short(width)}v${short(height)}h${short(-width)}z`);
  }
  const bounds = Number.isFinite(left) ? { x: left, y: top, width: right - left, height: bottom - top } : null;
  return { path: parts.join(''), bounds };
}
