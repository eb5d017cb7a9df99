import type { Layering } from './layering';

/**
 * Makes the placement exact: each group of items (a box's low or high border in all its
 * ranks) becomes one position, and every item is pushed towards the high side only as far as
 * the separations from its neighbours in the rank require. Groups are solved together, so a
 * box's border is one straight line and nothing outside the box ends up inside it.
 *
 * The constraints (item before item in a rank, through groups across ranks) are taken in
 * topological order; if the ranks' orders contradict each other (they should not), the rest
 * is placed rank by rank without the groups.
 */
export function packRanks(layering: Layering, gaps: readonly number[][], wanted: Float64Array, groups: readonly number[][]): Float64Array {
  const count = layering.items.length;
  // Every item stands for itself, or for its group (its first member).
  const node = new Int32Array(count);
  for (let i = 0; i < count; i++) node[i] = i;
  const start = new Float64Array(wanted);
  groups.forEach((group) => {
    const head = group[0];
    if (head === undefined) return;
    // A low border starts at its lowest wish, a high one at its highest (the group's name says which).
    const values = group.map((i) => wanted[i] ?? 0);
    const low = layering.items[head]?.kind === 'low-border';
    start[head] = low ? Math.min(...values) : Math.max(...values);
    for (const i of group) node[i] = head;
  });
  const out: { to: number; gap: number }[][] = Array.from({ length: count }, () => []);
  const indegree = new Int32Array(count);
  layering.layers.forEach((layer, r) => {
    for (let k = 1; k < layer.length; k++) {
      const from = node[layer[k - 1] ?? 0] ?? 0;
      const to = node[layer[k] ?? 0] ?? 0;
      if (from === to) continue;
      out[from]?.push({ to, gap: gaps[r]?.[k] ?? 0 });
      indegree[to] = (indegree[to] ?? 0) + 1;
    }
  });
  const value = new Float64Array(start);
  const queue: number[] = [];
  for (let i = 0; i < count; i++) if (node[i] === i && indegree[i] === 0) queue.push(i);
  let done = 0;
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] ?? 0;
    done += 1;
    for (const { to, gap } of out[v] ?? []) {
      value[to] = Math.max(value[to] ?? 0, (value[v] ?? 0) + gap);
      indegree[to] = (indegree[to] ?? 0) - 1;
      if (indegree[to] === 0) queue.push(to);
    }
  }
  const x = new Float64Array(count);
  for (let i = 0; i < count; i++) x[i] = value[node[i] ?? i] ?? 0;
  const roots = node.reduce((n, v, i) => n + (v === i ? 1 : 0), 0);
  if (done < roots) {
    // Contradictory orders: keep each rank's separations, without lining boxes up.
    layering.layers.forEach((layer, r) => {
      const first = layer[0];
      if (first !== undefined) x[first] = wanted[first] ?? 0;
      for (let k = 1; k < layer.length; k++) {
        const a = layer[k - 1] ?? 0;
        const b = layer[k] ?? 0;
        x[b] = Math.max(wanted[b] ?? 0, (x[a] ?? 0) + (gaps[r]?.[k] ?? 0));
      }
    });
  }
  return x;
}
