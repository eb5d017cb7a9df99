import type { TimeWindow } from './timeAxis';
import type { TimelineBar, TimelineLayout } from './timelineLayout';

/**
 * What of a long run's timeline is drawn: only the bars in the visible time window, and where
 * bars are too narrow to tell apart, one cluster per few pixels instead of each of them. A
 * 20,000-stage run then draws a few hundred elements at any zoom.
 */

/** A bar drawn narrower than this (px) may be drawn as part of a cluster. */
export const MIN_BAR_PX = 2;
/** Narrow bars starting within one stretch this wide (px, aligned to time 0) form one cluster. */
export const CLUSTER_PX = 4;
/** How much of the window's width is drawn beyond each side, so a short pan shows no gap. */
export const OVERSCAN = 0.25;
/**
 * A window holding at most this many bars draws each of them, however narrow: clusters are
 * for long runs, and a short run's millisecond stages stay there to be focused and clicked.
 */
export const CLUSTER_ABOVE = 500;

/** The bars of each row, in start order (bars in one row never overlap, so ends are ordered too). */
export type BarRows = readonly (readonly TimelineBar[])[];

/** Many narrow stage visits next to each other in one row, drawn as one block. */
export interface BarCluster {
  /** Stable while panning: the row and the stretch of time it starts in. */
  key: string;
  row: number;
  /** The CLUSTER_PX stretch its visits start in. */
  bucket: number;
  /** The first visit's start and the last one's end (ms since the run's start). */
  start: number;
  end: number;
  bars: TimelineBar[];
  /** How many of its visits failed. */
  failed: number;
  /** Whether any of them is still open. */
  open: boolean;
}

/** One thing to draw on the track. */
export type TrackItem = { type: 'bar'; bar: TimelineBar } | { type: 'cluster'; cluster: BarCluster };

/** The layout's bars split into rows, each in start order. O(n log n) once per layout. */
export function barRows(layout: TimelineLayout): BarRows {
  const rows: TimelineBar[][] = Array.from({ length: layout.rowCount }, () => []);
  for (const bar of layout.bars) rows[bar.row]?.push(bar);
  for (const row of rows) {
    let sorted = true;
    for (let i = 1; i < row.length && sorted; i += 1) sorted = (row[i - 1]?.start ?? 0) <= (row[i]?.start ?? 0);
    if (!sorted) row.sort((a, b) => a.start - b.start || a.end - b.end);
  }
  return rows;
}

/** The index of the first bar in `row` that ends at or after `t` (binary search). */
export function firstEndingAfter(row: readonly TimelineBar[], t: number): number {
  let low = 0;
  let high = row.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((row[middle]?.end ?? Infinity) < t) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the first bar in `row` that starts after `t` (binary search). */
export function firstStartingAfter(row: readonly TimelineBar[], t: number): number {
  let low = 0;
  let high = row.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((row[middle]?.start ?? Infinity) <= t) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * What to draw of `rows` in `window` (widened by OVERSCAN) at `scale` px per ms. A window
 * holding at most CLUSTER_ABOVE bars draws them all. Otherwise bars at least MIN_BAR_PX wide
 * are drawn as they are, and narrower ones are merged with their narrow neighbours that
 * start in the same CLUSTER_PX stretch (a stretch holding one narrow bar draws that bar).
 * Costs O(rows × log n + the bars in the window); the selected bar is drawn on its own by
 * `withKeptBar`, so selecting one does not go over the window again.
 */
export function visibleItems(rows: BarRows, window: TimeWindow, scale: number): TrackItem[] {
  const margin = (window.end - window.start) * OVERSCAN;
  const from = window.start - margin;
  const to = window.end + margin;
  let inWindow = 0;
  for (const row of rows) inWindow += Math.max(0, firstStartingAfter(row, to) - firstEndingAfter(row, from));
  const clustering = inWindow > CLUSTER_ABOVE;
  const items: TrackItem[] = [];
  rows.forEach((row, rowIndex) => {
    let pending: TimelineBar[] = [];
    let pendingBucket = NaN;
    const flush = () => {
      if (pending.length === 1 && pending[0] !== undefined) items.push({ type: 'bar', bar: pending[0] });
      else if (pending.length > 1) items.push({ type: 'cluster', cluster: cluster(rowIndex, pendingBucket, pending) });
      pending = [];
    };
    for (let i = firstEndingAfter(row, from); i < row.length; i += 1) {
      const bar = row[i];
      if (bar === undefined || bar.start > to) break;
      const narrow = clustering && (bar.end - bar.start) * scale < MIN_BAR_PX;
      if (!narrow) {
        flush();
        items.push({ type: 'bar', bar });
        continue;
      }
      const bucket = Math.floor((bar.start * scale) / CLUSTER_PX);
      if (bucket !== pendingBucket) flush();
      pendingBucket = bucket;
      pending.push(bar);
    }
    flush();
  });
  return items;
}

/**
 * `items` with the bar whose key is `keep` (the selected visit) drawn on its own: a cluster
 * holding it is split into the visits before it, the bar, and the visits after it (each
 * part of one visit drawn as a bar). The same items when it is drawn already or not in view.
 * O(the visits in clusters), with no layout.
 */
export function withKeptBar(items: TrackItem[], keep: string | null): TrackItem[] {
  if (keep === null) return items;
  for (let at = 0; at < items.length; at += 1) {
    const item = items[at];
    if (item?.type !== 'cluster') continue;
    const index = item.cluster.bars.findIndex((bar) => bar.key === keep);
    if (index >= 0) return splitAround(items, at, item.cluster, index);
  }
  return items;
}

/** `items` with the cluster at `at` split around its visit `index`, drawn as a bar. */
function splitAround(items: TrackItem[], at: number, { row, bucket, bars }: BarCluster, index: number): TrackItem[] {
  const kept = bars[index];
  if (kept === undefined) return items;
  const part = (some: TimelineBar[]): TrackItem[] => {
    const [only] = some;
    if (only === undefined) return [];
    return some.length === 1 ? [{ type: 'bar', bar: only }] : [{ type: 'cluster', cluster: cluster(row, bucket, some) }];
  };
  return [...items.slice(0, at), ...part(bars.slice(0, index)), { type: 'bar', bar: kept }, ...part(bars.slice(index + 1)), ...items.slice(at + 1)];
}

function cluster(row: number, bucket: number, bars: TimelineBar[]): BarCluster {
  const first = bars[0];
  const last = bars[bars.length - 1];
  let failed = 0;
  let open = false;
  for (const bar of bars) {
    if (bar.stage.status === 'fail') failed += 1;
    open ||= bar.open;
  }
  return {
    key: `cluster:${row}:${bucket}:${first?.key ?? ''}`,
    row,
    bucket,
    start: first?.start ?? 0,
    end: last?.end ?? 0,
    bars,
    failed,
    open,
  };
}
