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
  // Each constraint, in rank order: `to` at least `gap` after `from`; as runs per `from`.
  const firstOut = new Int32Array(count + 1);
  const indegree = new Int32Array(count);
  const eachConstraint = (visit: (from: number, to: number, k: number) => void) => {
    for (let r = 0; r < depth; r++) {
      for (let k = (layerStart[r] ?? 0) + 1; k < (layerStart[r + 1] ?? 0); k++) {
        const from = node[layerItems[k - 1] ?? 0] ?? 0;
        const to = node[layerItems[k] ?? 0] ?? 0;
        if (from !== to) visit(from, to, k);
      }
    }
  };
  let constraints = 0;
  eachConstraint((from, to) => {
    firstOut[from + 1] = (firstOut[from + 1] ?? 0) + 1;
    indegree[to] = (indegree[to] ?? 0) + 1;
    constraints++;
  });
  for (let i = 0; i < count; i++) firstOut[i + 1] = (firstOut[i + 1] ?? 0) + (firstOut[i] ?? 0);
  const outTo = new Int32Array(constraints);
  const outGap = new Float64Array(constraints);
  const filled = firstOut.slice(0, count);
  eachConstraint((from, to, k) => {
    const at = filled[from] ?? 0;
    outTo[at] = to;
    outGap[at] = gaps[k] ?? 0;
    filled[from] = at + 1;
  });
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
