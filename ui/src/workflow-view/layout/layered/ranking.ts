import { keyRuns } from './keyRuns';

/**
 * Ranks for nodes `0..count-1` of an acyclic graph whose edge `e` puts node `to[e]` at least
 * `minlen[e]` ranks below node `from[e]`: each node as high as its predecessors allow (longest
 * path from the sources, taken in index order), then every source moved down until it sits
 * just above its nearest successor, so a second entry point does not leave a long edge behind.
 * Ranks start at 0. Nodes on a cycle (there should be none) keep rank 0.
 */
export function rankNodes(count: number, from: Int32Array, to: Int32Array, minlen: Int32Array): Int32Array {
  const edgeCount = from.length;
  // Each node's out-edges in order, as runs of one array (`firstOut[v]` to `firstOut[v + 1]`).
  const { start: firstOut, order: outEdges } = keyRuns(from, count);
  const indegree = new Int32Array(count);
  for (let e = 0; e < edgeCount; e++) indegree[to[e] ?? 0] = (indegree[to[e] ?? 0] ?? 0) + 1;
  const rank = new Int32Array(count);
  const order = new Int32Array(count);
  let ordered = 0;
  const waiting = indegree.slice();
  for (let v = 0; v < count; v++) if (waiting[v] === 0) order[ordered++] = v;
  for (let head = 0; head < ordered; head++) {
    const v = order[head] ?? 0;
    for (let k = firstOut[v] ?? 0; k < (firstOut[v + 1] ?? 0); k++) {
      const e = outEdges[k] ?? 0;
      const w = to[e] ?? 0;
      rank[w] = Math.max(rank[w] ?? 0, (rank[v] ?? 0) + (minlen[e] ?? 1));
      waiting[w] = (waiting[w] ?? 0) - 1;
      if (waiting[w] === 0) order[ordered++] = w;
    }
  }
  // Sources drop to just above their nearest successor (latest first, so chains of sources follow).
  for (let i = ordered - 1; i >= 0; i--) {
    const v = order[i] ?? 0;
    const first = firstOut[v] ?? 0;
    const end = firstOut[v + 1] ?? 0;
    if (indegree[v] !== 0 || end === first) continue;
    let lowest = Infinity;
    for (let k = first; k < end; k++) {
      const e = outEdges[k] ?? 0;
      lowest = Math.min(lowest, (rank[to[e] ?? 0] ?? 0) - (minlen[e] ?? 1));
    }
    rank[v] = lowest;
  }
  let lowest = Infinity;
  for (let v = 0; v < count; v++) lowest = Math.min(lowest, rank[v] ?? 0);
  if (count > 0) for (let v = 0; v < count; v++) rank[v] = (rank[v] ?? 0) - lowest;
  return rank;
}
