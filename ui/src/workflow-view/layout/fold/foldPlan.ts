/**
 * Where to fold a long laid-out flow: the cuts across its along axis that split it into bands
 * (rows of a left-to-right flow, columns of a top-down one) so that, stacked side by side, they
 * fit a canvas of a given shape at the largest zoom. Pure numbers in the flow's frame, in flat
 * arrays: solids (nodes, boxes, labels) as `alongLow, alongHigh, crossLow, crossHigh` at
 * `4 * index`, points as `along, cross` at `2 * index`, intervals as `low, high` at `2 * index`.
 */

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

/** The along intervals the solids cover (`low, high` pairs), merged where they overlap, in order. */
export function coveredIntervals(solids: Float64Array): Float64Array {
  const count = solids.length / 4;
  const order = new Uint32Array(count);
  let sorted = true;
  for (let i = 0; i < count; i++) {
    order[i] = i;
    if (i > 0 && (solids[4 * i] ?? 0) < (solids[4 * (i - 1)] ?? 0)) sorted = false;
  }
  // Ties keep their order (as a stable sort would); a drawing's solids mostly come in order.
  if (!sorted) order.sort((a, b) => (solids[4 * a] ?? 0) - (solids[4 * b] ?? 0) || a - b);
  const merged = new Float64Array(count * 2);
  let length = 0;
  for (let k = 0; k < count; k++) {
    const i = order[k] ?? 0;
    const low = solids[4 * i] ?? 0;
    const high = solids[4 * i + 1] ?? 0;
    if (length > 0 && low <= (merged[2 * length - 1] ?? 0)) {
      merged[2 * length - 1] = Math.max(merged[2 * length - 1] ?? 0, high);
    } else {
      merged[2 * length] = low;
      merged[2 * length + 1] = high;
      length++;
    }
  }
  return merged.slice(0, 2 * length);
}

/** Which band (0 first) an along position falls in, for cuts in increasing order. */
export function bandOf(cuts: ArrayLike<number>, along: number): number {
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
function nearest(values: Float64Array, target: number, from: number, until: number): number {
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
export function evenCuts(intervals: Float64Array, bands: number): number[] | null {
  const count = intervals.length / 2;
  if (count === 0 || bands - 1 > count - 1) return null;
  const firstLow = intervals[0] ?? 0;
  const lastHigh = intervals[intervals.length - 1] ?? 0;
  const gaps = gapsBetween(intervals);
  const cuts: number[] = [];
  let from = 0;
  for (let j = 1; j < bands; j++) {
    const target = firstLow + ((lastHigh - firstLow) * j) / bands;
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

/** `count` empty extents (`alongLow, alongHigh, crossLow, crossHigh` each). */
function emptyExtents(count: number): Float64Array {
  const extents = new Float64Array(count * 4);
  for (let b = 0; b < count; b++) extents.set([Infinity, -Infinity, Infinity, -Infinity], 4 * b);
  return extents;
}

function widen(bands: Float64Array, band: number, alongLow: number, alongHigh: number, crossLow: number, crossHigh: number): void {
  const at = 4 * band;
  if (at >= bands.length) return;
  if (alongLow < (bands[at] ?? 0)) bands[at] = alongLow;
  if (alongHigh > (bands[at + 1] ?? 0)) bands[at + 1] = alongHigh;
  if (crossLow < (bands[at + 2] ?? 0)) bands[at + 2] = crossLow;
  if (crossHigh > (bands[at + 3] ?? 0)) bands[at + 3] = crossHigh;
}

/** Each band's extent: along and across, over the solids (by their centre) and points in it. */
export function bandExtents(solids: Float64Array, points: Float64Array, cuts: ArrayLike<number>): Float64Array {
  const bands = emptyExtents(cuts.length + 1);
  for (let at = 0; at < solids.length; at += 4) {
    const alongLow = solids[at] ?? 0;
    const alongHigh = solids[at + 1] ?? 0;
    widen(bands, bandOf(cuts, (alongLow + alongHigh) / 2), alongLow, alongHigh, solids[at + 2] ?? 0, solids[at + 3] ?? 0);
  }
  for (let at = 0; at < points.length; at += 2) {
    const along = points[at] ?? 0;
    const cross = points[at + 1] ?? 0;
    widen(bands, bandOf(cuts, along), along, along, cross, cross);
  }
  return bands;
}

/**
 * The same as `bandExtents` for `cuts` taken among `gaps` (increasing), from the extents of the
 * slots between one gap and the next (`bandExtents` at `gaps`), without going over every solid
 * and point again: a band is a run of slots.
 */
export function mergedExtents(slots: Float64Array, gaps: ArrayLike<number>, cuts: ArrayLike<number>): Float64Array {
  const bands = emptyExtents(cuts.length + 1);
  let band = 0;
  for (let i = 0; 4 * i < slots.length; i++) {
    // Slot i starts at gap i - 1; no cut falls inside a slot.
    const start = i === 0 ? -Infinity : (gaps[i - 1] ?? -Infinity);
    while (band < cuts.length && start >= (cuts[band] ?? Infinity)) band++;
    widen(bands, band, slots[4 * i] ?? 0, slots[4 * i + 1] ?? 0, slots[4 * i + 2] ?? 0, slots[4 * i + 3] ?? 0);
  }
  return bands;
}

/** The middle of each gap between consecutive covered intervals. */
function gapsBetween(intervals: Float64Array): Float64Array {
  const count = intervals.length / 2;
  const gaps = new Float64Array(Math.max(0, count - 1));
  for (let i = 1; i < count; i++) gaps[i - 1] = ((intervals[2 * i - 1] ?? 0) + (intervals[2 * i] ?? 0)) / 2;
  return gaps;
}

/** How long and wide the drawing is once folded into `bands` (extents; stacked across, with gaps). */
export function foldedSize(bands: Float64Array): { along: number; cross: number } {
  let along = 0;
  let cross = 0;
  const count = bands.length / 4;
  for (let at = 0; at < bands.length; at += 4) {
    if (!Number.isFinite(bands[at] ?? Infinity)) continue;
    along = Math.max(along, (bands[at + 1] ?? 0) - (bands[at] ?? 0));
    cross += (bands[at + 3] ?? 0) - (bands[at + 2] ?? 0);
  }
  if (count > 1) {
    along += 2 * BAND_MARGIN;
    cross += (count - 1) * BAND_GAP;
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
  solids: Float64Array,
  points: Float64Array,
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
  for (let bands = 2; bands <= Math.min(MAX_BANDS, intervals.length / 2) && bestZoom < maxZoom; bands++) {
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
