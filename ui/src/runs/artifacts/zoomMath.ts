/** A width and a height in CSS pixels. */
export interface Size {
  width: number;
  height: number;
}

/** A point relative to the centre of the viewport, in CSS pixels. */
export interface Point {
  x: number;
  y: number;
}

/** How an image is shown: its scale and where its centre is, relative to the viewport's. */
export interface ZoomView extends Point {
  scale: number;
}

/** The smallest and largest scales the lightbox allows. */
export const MIN_SCALE = 0.05;
export const MAX_SCALE = 16;
/** One press of zoom in or out. */
export const ZOOM_STEP = 1.25;

/** `scale` kept within MIN_SCALE..MAX_SCALE. */
export function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** The scale at which the whole image fits the viewport, never enlarged beyond 1:1. */
export function fitScale(image: Size, viewport: Size): number {
  if (image.width <= 0 || image.height <= 0 || viewport.width <= 0 || viewport.height <= 0) return 1;
  return clampScale(Math.min(1, viewport.width / image.width, viewport.height / image.height));
}

/** The view at `scale`, keeping the image point under `anchor` where it is. */
export function zoomAround(view: ZoomView, scale: number, anchor: Point = { x: 0, y: 0 }): ZoomView {
  const next = clampScale(scale);
  const ratio = next / view.scale;
  return {
    scale: next,
    x: anchor.x - (anchor.x - view.x) * ratio,
    y: anchor.y - (anchor.y - view.y) * ratio,
  };
}

/** The zoom factor for one wheel event (`deltaMode` 1 = lines, 2 = pages). */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-pixels * 0.002);
}

/** "125%": a scale as people read it. */
export function formatScale(scale: number): string {
  return `${Math.round(scale * 100)}%`;
}
