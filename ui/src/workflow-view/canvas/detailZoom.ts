import { useStore } from '@xyflow/react';

/**
 * Below this zoom a label would be a few pixels tall: nodes are drawn as their outline only
 * and edge chips are left out, which keeps a large graph seen whole cheap to draw and pan.
 */
export const DETAIL_ZOOM = 0.35;

/** Whether the canvas is zoomed in enough to draw node contents (re-renders only when that flips). */
export function useDetailed(): boolean {
  return useStore((state) => state.transform[2] >= DETAIL_ZOOM);
}
