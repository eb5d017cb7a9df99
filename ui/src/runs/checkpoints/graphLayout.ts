import type { CheckpointEntry } from '../../generated/CheckpointEntry';

/** Where a line meets a row: its top edge, the commit's dot, or its bottom edge. */
export type RowPoint = 'top' | 'mid' | 'bottom';

/** A straight line drawn inside one row, from one lane and height to another. */
export interface GraphSegment {
  fromLane: number;
  from: RowPoint;
  toLane: number;
  to: RowPoint;
}

/** One checkpoint as a row of the graph. */
export interface GraphRow {
  entry: CheckpointEntry;
  /** The lane (column) of its dot. */
  lane: number;
  /** The row of its parent; null when the parent is the run's base (not a checkpoint). */
  parentRow: number | null;
  /** The lines drawn in this row (this commit's and those passing by). */
  segments: GraphSegment[];
}

/** The graph: rows newest first, and how many lanes it needs. */
export interface GraphLayout {
  rows: GraphRow[];
  laneCount: number;
}

/** The rows (in half-row steps, [start, end)) a timeline's line occupies in its lane. */
interface Span {
  timeline: number;
  start: number;
  end: number;
}

/**
 * Gives each timeline the lowest lane free over the rows its line covers, in timeline
 * order, so timeline 1 keeps lane 0 and a lane is reused once an older line has joined.
 */
function assignLanes(spans: Span[]): Map<number, number> {
  const lanes = new Map<number, number>();
  const taken: Span[][] = [];
  for (const span of [...spans].sort((a, b) => a.timeline - b.timeline)) {
    let lane = 0;
    while ((taken[lane] ?? []).some((other) => other.start < span.end && span.start < other.end)) lane++;
    (taken[lane] ??= []).push(span);
    lanes.set(span.timeline, lane);
  }
  return lanes;
}

/**
 * Lays checkpoints out as a commit graph. `entries` come as the API lists them: timeline
 * by timeline, oldest first within each, so every parent precedes its children. Rows are
 * newest first; each timeline has a lane; a commit's line runs down its lane to its
 * parent's row and bends into the parent's lane there (a rollback's new timeline branches
 * off an older commit). A parent that is not a checkpoint (the run's base) draws the line
 * down to the bottom of the graph.
 */
export function layoutCommitGraph(entries: CheckpointEntry[]): GraphLayout {
  const ordered = [...entries].reverse();
  const rowOf = new Map<string, number>(ordered.map((e, row) => [e.sha, row]));
  const parentRows = ordered.map((entry, row) => {
    const parent = entry.parent === null ? undefined : rowOf.get(entry.parent);
    return parent !== undefined && parent > row ? parent : null;
  });
  const bottom = ordered.length;

  const spans = new Map<number, Span>();
  ordered.forEach((entry, row) => {
    const end = 2 * (parentRows[row] ?? bottom) + 1;
    const start = 2 * row + 1;
    const span = spans.get(entry.timeline);
    if (span === undefined) spans.set(entry.timeline, { timeline: entry.timeline, start, end });
    else {
      span.start = Math.min(span.start, start);
      span.end = Math.max(span.end, end);
    }
  });
  const lanes = assignLanes([...spans.values()]);
  const laneOf = (entry: CheckpointEntry) => lanes.get(entry.timeline) ?? 0;

  const rows: GraphRow[] = ordered.map((entry, row) => ({
    entry,
    lane: laneOf(entry),
    parentRow: parentRows[row] ?? null,
    segments: [],
  }));
  rows.forEach((child, row) => {
    const lane = child.lane;
    const parentRow = child.parentRow;
    const isOldest = row === rows.length - 1;
    if (parentRow === null) {
      // Down to the base: nothing to draw below the very last row.
      if (isOldest) return;
      child.segments.push({ fromLane: lane, from: 'mid', toLane: lane, to: 'bottom' });
      for (let r = row + 1; r < rows.length; r++) {
        rows[r]?.segments.push({ fromLane: lane, from: 'top', toLane: lane, to: 'bottom' });
      }
      return;
    }
    child.segments.push({ fromLane: lane, from: 'mid', toLane: lane, to: 'bottom' });
    for (let r = row + 1; r < parentRow; r++) {
      rows[r]?.segments.push({ fromLane: lane, from: 'top', toLane: lane, to: 'bottom' });
    }
    const parent = rows[parentRow];
    parent?.segments.push({ fromLane: lane, from: 'top', toLane: parent.lane, to: 'mid' });
  });
  const laneCount = rows.reduce((most, r) => Math.max(most, r.lane + 1), 0);
  return { rows, laneCount };
}

/** The checkpoint the run continues from (the current timeline's tip), if listed. */
export function currentTip(entries: CheckpointEntry[]): CheckpointEntry | null {
  return entries.find((e) => e.current) ?? null;
}
