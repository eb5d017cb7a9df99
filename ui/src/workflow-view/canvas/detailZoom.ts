/**
 * Below this zoom a label would be a few pixels tall: the canvas draws the graph as one
 * sketch (`SketchLayer`) instead of its React Flow nodes and edges.
 */
export const DETAIL_ZOOM = 0.35;

/** Whether a canvas at `zoom` is drawn as a sketch. */
export function isSketchZoom(zoom: number): boolean {
  return zoom < DETAIL_ZOOM;
}
