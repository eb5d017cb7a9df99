/** A constraint between two nodes' ranks: `to` lies at least `minlen` ranks below `from`. */
export interface RankEdge {
  from: number;
  to: number;
  minlen: number;
}

/**
 * Ranks for nodes `0..count-1` of an acyclic graph: each node as high as its predecessors
 * allow (longest path from the sources, taken in index order), then every source moved down
 * until it sits just above its nearest successor, so a second entry point does not leave a
 * long edge behind. Ranks start at 0. Nodes on a cycle (there should be none) keep rank 0.
 */
export function assignRanks(count: number, edges: readonly RankEdge[]): number[] {
  const outgoing: RankEdge[][] = Array.from({ length: count }, () => []);
  const indegree = new Array<number>(count).fill(0);
  for (const edge of edges) {
    outgoing[edge.from]?.push(edge);
    indegree[edge.to] = (indegree[edge.to] ?? 0) + 1;
  }
  const rank = new Array<number>(count).fill(0);
  const order: number[] = [];
  const waiting = [...indegree];
  for (let v = 0; v < count; v++) if (waiting[v] === 0) order.push(v);
  for (let head = 0; head < order.length; head++) {
    const v = order[head] ?? 0;
    for (const edge of outgoing[v] ?? []) {
      rank[edge.to] = Math.max(rank[edge.to] ?? 0, (rank[v] ?? 0) + edge.minlen);
      waiting[edge.to] = (waiting[edge.to] ?? 0) - 1;
      if (waiting[edge.to] === 0) order.push(edge.to);
    }
  }
  // Sources drop to just above their nearest successor (latest first, so chains of sources follow).
  for (let i = order.length - 1; i >= 0; i--) {
    const v = order[i] ?? 0;
    const out = outgoing[v] ?? [];
    if (indegree[v] !== 0 || out.length === 0) continue;
    rank[v] = Math.min(...out.map((edge) => (rank[edge.to] ?? 0) - edge.minlen));
  }
  const lowest = count === 0 ? 0 : Math.min(...rank);
  return rank.map((r) => r - lowest);
}
