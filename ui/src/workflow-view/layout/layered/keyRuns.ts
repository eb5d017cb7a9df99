/**
 * Indices grouped by a small whole-number key, as runs of one array: what the layered engine
 * keeps instead of an array per node or rank (a node's out-edges, a rank's items, an item's
 * neighbours).
 */
export interface KeyRuns {
  /** Key `g`'s indices are `order[start[g]]` to `order[start[g + 1] - 1]`. */
  start: Int32Array;
  /** Every index `0..keys.length-1`, by key, in index order within a key. */
  order: Int32Array;
}

/** `0..keys.length-1` grouped by `keys[i]` (each in `0..groups-1`), a counting sort. */
export function keyRuns(keys: ArrayLike<number>, groups: number): KeyRuns {
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < keys.length; i++) {
    const g = (keys[i] ?? 0) + 1;
    start[g] = (start[g] ?? 0) + 1;
  }
  for (let g = 0; g < groups; g++) start[g + 1] = (start[g + 1] ?? 0) + (start[g] ?? 0);
  const order = new Int32Array(keys.length);
  const filled = start.slice(0, groups);
  for (let i = 0; i < keys.length; i++) {
    const g = keys[i] ?? 0;
    const at = filled[g] ?? 0;
    order[at] = i;
    filled[g] = at + 1;
  }
  return { start, order };
}
