/**
 * Where to fold a long laid-out flow: the cuts across its along axis that split it into bands
 * (rows of a left-to-right flow, columns of a top-down one) so that, stacked side by side, they
 * fit a canvas of a given shape at the largest zoom. Pure numbers in the flow's frame.
 */
import type { FrameBox, FramePoint } from './frame';

/** Room between two bands, before the lanes of the edges that run through it. */
export const BAND_GAP = 72;
/** How far beyond a band's ends an edge that leaves it turns. */
export const BAND_MARGIN = 26;
/** Spacing of edges running side by side between bands. */
export const LANE = 9;
/** The most bands a flow is folded into. */
const MAX_BANDS = 24;
/** A fold with one more band is only taken when it zooms in at least this much further. */
const WORTH_ANOTHER_BAND = 1.04;

/** An along interval that something solid (a node, a box, a label) covers. */
interface Interval {
  low: number;
  high: number;
}

/** The along intervals the solids cover, merged where they overlap, in order. */
export function coveredIntervals(solids: readonly FrameBox[]): Interval[] {
  const sorted = solids.map((s) => ({ low: s.alongLow, high: s.alongHigh })).sort((a, b) => a.low - b.low);
  const merged: Interval[] = [];
  for (const next of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && next.low <= last.high) last.high = Math.max(last.high, next.high);
    else merged.push({ ...next });
  }
  return merged;
}

/** Which band (0 first) an along position falls in, for cuts in increasing order. */
export function bandOf(cuts: readonly number[], along: number): number {
  // The number of cuts at or before `along`, by halving (a long flow has tens of thousands of points).
  let low = 0;
  let high = cuts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (along >= (cuts[mid] ?? Infinity)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The index in `[from, until)` of the value of increasing `values` nearest `target` (the lower on a tie). */
function nearest(values: readonly number[], target: number, from: number, until: number): number {
  let low = from;
  let high = until;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] ?? Infinity) < target) low = mid + 1;
    else high = mid;
  }
  if (low >= until) return until - 1;
  if (low > from && Math.abs((values[low - 1] ?? 0) - target) <= Math.abs((values[low] ?? 0) - target)) return low - 1;
  return low;
}

/**
 * `bands - 1` cuts, each in the middle of a gap between covered intervals, as near as the
 * gaps allow to equal shares of the whole length; null when there are too few gaps.
 */
export function evenCuts(intervals: readonly Interval[], bands: number): number[] | null {
  const first = intervals[0];
  const last = intervals[intervals.length - 1];
  if (first === undefined || last === undefined || bands - 1 > intervals.length - 1) return null;
  const gaps = gapsBetween(intervals);
  const cuts: number[] = [];
  let from = 0;
  for (let j = 1; j < bands; j++) {
    const target = first.low + ((last.high - first.low) * j) / bands;
    // The nearest gap at or after `from`, leaving enough gaps for the cuts still to come
    // (the gaps, between intervals in order, increase).
    const until = gaps.length - (bands - 1 - j);
    const best = until > from ? nearest(gaps, target, from, until) : from;
    const cut = gaps[best];
    if (cut === undefined) return null;
    cuts.push(cut);
    from = best + 1;
  }
  return cuts;
}

function emptyBox(): FrameBox {
  return { alongLow: Infinity, alongHigh: -Infinity, crossLow: Infinity, crossHigh: -Infinity };
}

function widen(band: FrameBox | undefined, alongLow: number, alongHigh: number, crossLow: number, crossHigh: number): void {
  if (band === undefined) return;
  if (alongLow < band.alongLow) band.alongLow = alongLow;
  if (alongHigh > band.alongHigh) band.alongHigh = alongHigh;
  if (crossLow < band.crossLow) band.crossLow = crossLow;
  if (crossHigh > band.crossHigh) band.crossHigh = crossHigh;
}

/** Each band's extent: along and across, over the solids (by their centre) and points in it. */
export function bandExtents(solids: readonly FrameBox[], points: readonly FramePoint[], cuts: readonly number[]): FrameBox[] {
  const bands: FrameBox[] = Array.from({ length: cuts.length + 1 }, emptyBox);
  for (const s of solids) widen(bands[bandOf(cuts, (s.alongLow + s.alongHigh) / 2)], s.alongLow, s.alongHigh, s.crossLow, s.crossHigh);
  for (const p of points) widen(bands[bandOf(cuts, p.along)], p.along, p.along, p.cross, p.cross);
  return bands;
}

/**
 * The same as `bandExtents` for `cuts` taken among `gaps` (increasing), from the extents of the
 * slots between one gap and the next (`bandExtents` at `gaps`), without going over every solid
 * and point again: a band is a run of slots.
 */
export function mergedExtents(slots: readonly FrameBox[], gaps: readonly number[], cuts: readonly number[]): FrameBox[] {
  const bands: FrameBox[] = Array.from({ length: cuts.length + 1 }, emptyBox);
  let band = 0;
  slots.forEach((slot, i) => {
    // Slot i starts at gap i - 1; no cut falls inside a slot.
    const start = gaps[i - 1] ?? -Infinity;
    while (band < cuts.length && start >= (cuts[band] ?? Infinity)) band++;
    widen(bands[band], slot.alongLow, slot.alongHigh, slot.crossLow, slot.crossHigh);
  });
  return bands;
}

/** The middle of each gap between consecutive covered intervals. */
function gapsBetween(intervals: readonly Interval[]): number[] {
  return intervals.slice(1).map((interval, i) => ((intervals[i]?.high ?? 0) + interval.low) / 2);
}

/** How long and wide the drawing is once folded at `cuts` (bands stacked across, with gaps). */
export function foldedSize(bands: readonly FrameBox[]): { along: number; cross: number } {
  let along = 0;
  let cross = 0;
  for (const band of bands) {
    if (!Number.isFinite(band.alongLow)) continue;
    along = Math.max(along, band.alongHigh - band.alongLow);
    cross += band.crossHigh - band.crossLow;
  }
  if (bands.length > 1) {
    along += 2 * BAND_MARGIN;
    cross += (bands.length - 1) * BAND_GAP;
  }
  return { along, cross };
}

/**
 * The cuts that fold the drawing (its solids and route points) to fit `room` (the canvas in
 * the flow's frame, less its padding) at the largest zoom up to `maxZoom`; none when the
 * unfolded drawing fits at `readableZoom` or more, or fits as well. A fold with more bands
 * must zoom in noticeably further.
 */
export function planFold(
  solids: readonly FrameBox[],
  points: readonly FramePoint[],
  room: { along: number; cross: number },
  zooms: { max: number; readable: number },
): number[] {
  const maxZoom = zooms.max;
  if (room.along <= 0 || room.cross <= 0) return [];
  const intervals = coveredIntervals(solids);
  // Every fold cuts at gaps: the solids and points are gone over once, into the slots between them.
  const gaps = gapsBetween(intervals);
  const slots = bandExtents(solids, points, gaps);
  const zoomAt = (cuts: readonly number[]) => {
    const size = foldedSize(mergedExtents(slots, gaps, cuts));
    return Math.min(maxZoom, room.along / Math.max(size.along, 1), room.cross / Math.max(size.cross, 1));
  };
  let best: number[] = [];
  let bestZoom = zoomAt(best);
  if (bestZoom >= zooms.readable) return best;
  for (let bands = 2; bands <= Math.min(MAX_BANDS, intervals.length) && bestZoom < maxZoom; bands++) {
    const cuts = evenCuts(intervals, bands);
    if (cuts === null) break;
    const zoom = zoomAt(cuts);
    if (zoom > bestZoom * WORTH_ANOTHER_BAND) {
      best = cuts;
      bestZoom = zoom;
    }
  }
  return best;
}
