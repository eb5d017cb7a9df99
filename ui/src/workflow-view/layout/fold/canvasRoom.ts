/**
 * The room a laid-out flow will be shown in, for folding it to the canvas's shape before it is
 * drawn: the size of the canvas area as last measured (`noteCanvasSize`, by the workflow view
 * as it appears, before its first layout is asked for), else the window's.
 */
import { FIT_PADDING, fitPadding } from '../../canvas/fitViewport';
import { READABLE_ZOOM, WHOLE_READABLE_ZOOM } from '../../canvas/openingViewport';
import type { FoldRoom } from './foldFlow';

let lastCanvas: { width: number; height: number; topInset: number } | null = null;

/** Records the canvas area's size in pixels, and how far down the cards over its top reach
 * (ignored while it is not laid out). */
export function noteCanvasSize(width: number, height: number, topInset: number): void {
  if (width > 0 && height > 0) lastCanvas = { width, height, topInset };
}

/** The room to fold for: the last canvas size (else the window's), less the fit's padding. */
export function foldRoom(): FoldRoom | null {
  const canvas =
    lastCanvas ?? (typeof window === 'undefined' ? null : { width: window.innerWidth, height: window.innerHeight });
  if (canvas === null) return null;
  const padding = lastCanvas === null ? FIT_PADDING : fitPadding(lastCanvas.topInset);
  const px = (value: string) => parseFloat(value);
  return {
    width: canvas.width - px(padding.left) - px(padding.right),
    height: canvas.height - px(padding.top) - px(padding.bottom),
    // Folded just enough to read easily: fewer bands, fewer edges running between them.
    maxZoom: READABLE_ZOOM,
    readableZoom: WHOLE_READABLE_ZOOM,
  };
}
