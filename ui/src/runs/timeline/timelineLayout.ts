import type { HumanWait } from '../../generated/HumanWait';
import type { Timeline } from '../../generated/Timeline';
import type { TimelineStage } from '../../generated/TimelineStage';
import { MinHeap } from './minHeap';
import { parseTime, stageTimes } from './stageTimes';

/**
 * Where a run's stages sit in time and space. All times are milliseconds since the run's
 * first stage started; rows count from 0 at the top across all lanes.
 */
export interface TimelineLayout {
  /** When the run started (ms since the epoch); 0 for an empty, finished run. */
  origin: number;
  /** From the start to the latest end (or to `now` while the run is running). */
  span: number;
  /** The main lane first, then one per parallel branch. */
  lanes: TimelineLane[];
  /** One bar per stage visit, in the timeline's order (start order). */
  bars: TimelineBar[];
  /** Rows in all lanes together. */
  rowCount: number;
}

/** A horizontal band: the main line or one parallel branch. */
export interface TimelineLane {
  /** The branch name; null for the main lane. */
  id: string | null;
  /** What to show beside it. */
  label: string;
  /** Its first row. */
  firstRow: number;
  /** How many rows its stages need so no two bars overlap (at least 1). */
  rowCount: number;
}

/** One stage visit placed on the time axis. */
export interface TimelineBar {
  /** Stable, unique id: `node#visit`. */
  key: string;
  stage: TimelineStage;
  /** Index into `lanes`. */
  lane: number;
  /** Row across all lanes. */
  row: number;
  start: number;
  end: number;
  /** It has no end yet (`ended_at` is null). */
  open: boolean;
  /** Open while the run is running: its end is `now` and keeps moving. */
  live: boolean;
  /** Human waits, clamped to the bar. */
  waits: WaitSegment[];
  /**
   * Where the retries fall. The timeline only counts retries, so they are spread evenly
   * between the attempts: one mark per retry, strictly inside the bar.
   */
  retryMarks: number[];
}

/** A stretch of a bar spent waiting for a person. */
export interface WaitSegment {
  start: number;
  end: number;
  /** Not answered yet. */
  open: boolean;
  wait: HumanWait;
}

/** The lane label for stages outside any parallel branch. */
export const MAIN_LANE_LABEL = 'main';

/**
 * Places every stage of a timeline. `now` (ms since the epoch) ends stages and waits
 * still open while the run is running; it is ignored otherwise. O(n log n).
 */
export function layoutTimeline(timeline: Timeline, now: number): TimelineLayout {
  const live = timeline.status === 'running';
  const stages = timeline.stages;
  // Each time is read once (and kept for the run's progress): a long run has tens of thousands.
  const { starts, ends } = stageTimes(stages);
  const origin = runOrigin(starts, live ? now : 0);
  const latest = latestKnownTime(stages, starts, ends, origin, live ? now : null) - origin;

  const { lanes, laneOf } = collectLanes(timeline);
  const keys = new Set<string>();
  const bars: TimelineBar[] = stages.map((stage, i) => {
    const startedAt = starts[i] ?? Number.NaN;
    const endedAt = ends[i] ?? Number.NaN;
    const start = (Number.isNaN(startedAt) ? origin : startedAt) - origin;
    const ended = Number.isNaN(endedAt) ? null : endedAt;
    const open = ended === null;
    const barLive = open && live;
    let end: number;
    if (ended !== null) end = ended - origin;
    else if (barLive) end = now - origin;
    else if (stage.duration_ms !== null) end = start + stage.duration_ms;
    else end = latest;
    end = Math.max(start, end);
    return {
      key: uniqueKey(keys, `${stage.node_id}#${stage.visit}`, i),
      stage,
      lane: laneOf(stage.branch),
      row: 0,
      start,
      end,
      open,
      live: barLive,
      waits: stage.waits.map((wait) => waitSegment(wait, origin, start, end, barLive ? now : null)),
      retryMarks: retryMarks(start, end, stage.retries, stage.attempts),
    };
  });

  const rowCount = stackRows(bars, lanes);
  let span = live ? Math.max(0, now - origin) : 0;
  for (const bar of bars) span = Math.max(span, bar.end);
  return { origin, span, lanes, bars, rowCount };
}

function runOrigin(starts: Float64Array, fallback: number): number {
  let origin = Infinity;
  for (const start of starts) if (start < origin) origin = start;
  return Number.isFinite(origin) ? origin : fallback;
}

/** The latest time any stage or wait mentions (or `now` when live): ends open stages of a stopped run. */
function latestKnownTime(
  stages: readonly TimelineStage[],
  starts: Float64Array,
  ends: Float64Array,
  origin: number,
  now: number | null,
): number {
  let latest = Math.max(origin, now ?? origin);
  const consider = (text: string | null) => {
    const t = parseTime(text);
    if (t !== null && t > latest) latest = t;
  };
  for (const t of starts) if (t > latest) latest = t;
  for (const t of ends) if (t > latest) latest = t;
  for (const stage of stages) {
    for (const wait of stage.waits) {
      consider(wait.started_at);
      consider(wait.ended_at);
    }
  }
  return latest;
}

function collectLanes(timeline: Timeline): {
  lanes: TimelineLane[];
  laneOf: (branch: string | null) => number;
} {
  const lanes: TimelineLane[] = [{ id: null, label: MAIN_LANE_LABEL, firstRow: 0, rowCount: 1 }];
  const index = new Map<string, number>();
  const laneOf = (branch: string | null): number => {
    if (branch === null) return 0;
    const known = index.get(branch);
    if (known !== undefined) return known;
    index.set(branch, lanes.length);
    lanes.push({ id: branch, label: branch, firstRow: 0, rowCount: 1 });
    return lanes.length - 1;
  };
  for (const lane of timeline.lanes) laneOf(lane);
  return { lanes, laneOf };
}

function uniqueKey(taken: Set<string>, key: string, index: number): string {
  const unique = taken.has(key) ? `${key}~${index}` : key;
  taken.add(unique);
  return unique;
}

function waitSegment(
  wait: HumanWait,
  origin: number,
  barStart: number,
  barEnd: number,
  now: number | null,
): WaitSegment {
  const clamp = (t: number) => Math.min(barEnd, Math.max(barStart, t));
  const started = parseTime(wait.started_at);
  const ended = parseTime(wait.ended_at);
  const start = clamp(started === null ? barStart : started - origin);
  let end: number;
  if (ended !== null) end = ended - origin;
  else if (now !== null) end = now - origin;
  else end = barEnd;
  return { start, end: Math.max(start, clamp(end)), open: wait.ended_at === null, wait };
}

function retryMarks(start: number, end: number, retries: number, attempts: number): number[] {
  const count = Math.max(0, Math.floor(retries));
  const parts = Math.max(attempts, count + 1);
  const marks: number[] = [];
  for (let k = 1; k <= count; k += 1) marks.push(start + ((end - start) * k) / parts);
  return marks;
}

/**
 * Gives each bar a row so bars in one lane never overlap: greedy interval partitioning,
 * lowest free row first (touching bars share a row). Fills in the lanes' rows; returns
 * the total row count.
 */
function stackRows(bars: TimelineBar[], lanes: TimelineLane[]): number {
  const byLane: TimelineBar[][] = lanes.map(() => []);
  for (const bar of bars) byLane[bar.lane]?.push(bar);
  let nextRow = 0;
  lanes.forEach((lane, i) => {
    const laneBars = byLane[i] ?? [];
    laneBars.sort((a, b) => a.start - b.start || a.end - b.end);
    const busy = new MinHeap<{ end: number; row: number }>(
      (a, b) => a.end < b.end || (a.end === b.end && a.row < b.row),
    );
    const free = new MinHeap<number>((a, b) => a < b);
    let rows = 0;
    for (const bar of laneBars) {
      for (let top = busy.peek(); top !== undefined && top.end <= bar.start; top = busy.peek()) {
        busy.pop();
        free.push(top.row);
      }
      const row = free.pop() ?? rows++;
      bar.row = row;
      busy.push({ end: bar.end, row });
    }
    lane.firstRow = nextRow;
    lane.rowCount = Math.max(1, rows);
    nextRow += lane.rowCount;
    for (const bar of laneBars) bar.row += lane.firstRow;
  });
  return nextRow;
}
