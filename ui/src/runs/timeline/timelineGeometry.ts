import type { CSSProperties } from 'react';
import type { TimeWindow } from './timeAxis';

/** Height of one row of bars, in px. */
export const ROW_HEIGHT = 30;
/** Space above and below a bar inside its row, in px. */
export const BAR_INSET = 4;

/** A bar's top edge, in px from the top of the track. */
export function rowTop(row: number): number {
  return row * ROW_HEIGHT + BAR_INSET;
}

/** A style that sets CSS custom properties (React's typing does not know them). */
export function customProperties(values: Record<`--${string}`, string | number>): CSSProperties {
  return values as CSSProperties;
}

/**
 * The custom properties every positioned element's CSS reads to turn ms into px: the
 * visible window's start (`--tl-offset`, ms), px per ms (`--tl-scale`) and the track's
 * width (`--tl-view`). Changing them moves every bar without re-rendering it.
 */
export function timeScaleStyle(visible: TimeWindow, scale: number, widthPx: number): CSSProperties {
  return customProperties({
    '--tl-offset': visible.start,
    '--tl-scale': scale,
    '--tl-view': `${widthPx}px`,
  });
}

/** Where time `t` is on the track, in px from its left edge. */
export function timeToPx(t: number, visible: TimeWindow, scale: number): number {
  return (t - visible.start) * scale;
}
