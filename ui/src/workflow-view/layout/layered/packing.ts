import { keyRuns } from './keyRuns';
import { LOW_BORDER, type Layering } from './layering';

/**
 * Makes the placement exact: each group of items (a box's low or high border in all its
 * ranks) becomes one position, and every item is pushed towards the high side only as far as
 * the separations from its neighbours in the rank require. Groups are solved together, so a
 * box's border is one straight line and nothing outside the box ends up inside it. `gaps[k]`
 * separates the item at `layerItems[k]` from the one before it in its rank.
 *
 * The constraints (item before item in a rank, through groups across ranks) are taken in
 * topological order; if the ranks' orders contradict each other (they should not), the rest
 * is placed rank by rank without the groups.
 */
export function packRanks(layering: Layering, gaps: Float64Array, wanted: Float64Array, groups: readonly number[][]): Float64Array {
  const { count, depth, layerStart, layerItems } = layering;
  // Every item stands for itself, or for its group (its first member).
  const node = new Int32Array(count);
  for (let i = 0; i < count; i++) node[i] = i;
  const start = new Float64Array(wanted);
  groups.forEach((group) => {
    const head = group[0];
    if (head === undefined) return;
    // A low border starts at its lowest wish, a high one at its highest (the group's kind says which).
    const low = layering.kind[head] === LOW_BORDER;
    let value = low ? Infinity : -Infinity;
    for (const i of group) value = low ? Math.min(value, wanted[i] ?? 0) : Math.max(value, wanted[i] ?? 0);
    start[head] = value;
    for (const i of group) node[i] = head;
  });
  // Each constraint, in rank order: `to` at least `gaps[k]` after `from`, for the pair of
  // neighbours ending at `layerItems[k]`; at most one per item.
  const froms = new Int32Array(count);
  const tos = new Int32Array(count);
  const slots = new Int32Array(count);
  const indegree = new Int32Array(count);
  let constraints = 0;
  for (let r = 0; r < depth; r++) {
    for (let k = (layerStart[r] ?? 0) + 1; k < (layerStart[r + 1] ?? 0); k++) {
      const from = node[layerItems[k - 1] ?? 0] ?? 0;
      const to = node[layerItems[k] ?? 0] ?? 0;
      if (from === to) continue;
      froms[constraints] = from;
      tos[constraints] = to;
      slots[constraints] = k;
      indegree[to] = (indegree[to] ?? 0) + 1;
      constraints++;
    }
  }
  // As runs per `from`, in rank order within each.
  const { start: firstOut, order } = keyRuns(froms.subarray(0, constraints), count);
  const outTo = new Int32Array(constraints);
  const outGap = new Float64Array(constraints);
  for (let at = 0; at < constraints; at++) {
    const c = order[at] ?? 0;
    outTo[at] = tos[c] ?? 0;
    outGap[at] = gaps[slots[c] ?? 0] ?? 0;
  }
  const value = new Float64Array(start);
  const queue = new Int32Array(count);
  let queued = 0;
  for (let i = 0; i < count; i++) if (node[i] === i && indegree[i] === 0) queue[queued++] = i;
  let done = 0;
  for (let head = 0; head < queued; head++) {
    const v = queue[head] ?? 0;
    done += 1;
    for (let c = firstOut[v] ?? 0; c < (firstOut[v + 1] ?? 0); c++) {
      const to = outTo[c] ?? 0;
      value[to] = Math.max(value[to] ?? 0, (value[v] ?? 0) + (outGap[c] ?? 0));
      indegree[to] = (indegree[to] ?? 0) - 1;
      if (indegree[to] === 0) queue[queued++] = to;
    }
  }
  const x = new Float64Array(count);
  let roots = 0;
  for (let i = 0; i < count; i++) {
    x[i] = value[node[i] ?? i] ?? 0;
    if (node[i] === i) roots++;
  }
  if (done < roots) {
    // Contradictory orders: keep each rank's separations, without lining boxes up.
    for (let r = 0; r < depth; r++) {
      const from = layerStart[r] ?? 0;
      const until = layerStart[r + 1] ?? 0;
      if (until === from) continue;
      const first = layerItems[from] ?? 0;
      x[first] = wanted[first] ?? 0;
      for (let k = from + 1; k < until; k++) {
        const a = layerItems[k - 1] ?? 0;
        const b = layerItems[k] ?? 0;
        x[b] = Math.max(wanted[b] ?? 0, (x[a] ?? 0) + (gaps[k] ?? 0));
      }
    }
  }
  return x;
}
