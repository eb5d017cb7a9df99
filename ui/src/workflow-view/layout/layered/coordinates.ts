import type { LayeredCluster } from './layeredInput';
import { HIGH_BORDER, isBorder, LOW_BORDER, NODE, type Layering } from './layering';
import type { Adjacency } from './ordering';
import { packRanks } from './packing';

/** Gaps across a rank, in pixels, matching the ELK engine's spacing. */
export const NODE_GAP = 44;
const EDGE_NODE_GAP = 22;
const EDGE_EDGE_GAP = 14;

/** Down-and-up sweeps placing items under their neighbours. */
const SWEEPS = 8;
/** A sweep that moves nothing further than this (pixels) ends the one-sided sweeps. */
const SETTLED = 0.5;
/** How little an item without neighbours on the side being looked at wants to stay put. */
const STAY_WEIGHT = 0.05;
/** How strongly a box's border wants to line up with the same border in the ranks around. */
const BORDER_WEIGHT = 4;

/** Whether item `item` lies inside box `cluster` (a border of it included). */
function inside(layering: Layering, item: number, cluster: number, clusters: readonly LayeredCluster[]): boolean {
  return clusters[layering.cluster[item] ?? -1]?.path.includes(cluster) ?? false;
}

/**
 * The least distance between the centres of two items next to each other in a rank (`a` on
 * the low side): from a box's low border to what is inside it, its room on that side; from
 * what is inside to its high border, the room on the high side; between anything else, half of
 * each and a gap (wider between two nodes than where an edge passes).
 */
function separation(layering: Layering, a: number, b: number, clusters: readonly LayeredCluster[]): number {
  const { kind, cross, reach, cluster } = layering;
  const aCross = cross[a] ?? 0;
  const bCross = cross[b] ?? 0;
  const aReach = reach[a] ?? 0;
  if (kind[a] === LOW_BORDER && inside(layering, b, cluster[a] ?? -1, clusters)) return (clusters[cluster[a] ?? -1]?.crossLow ?? 0) + bCross / 2;
  if (kind[b] === HIGH_BORDER && inside(layering, a, cluster[b] ?? -1, clusters)) return aCross / 2 + aReach + (clusters[cluster[b] ?? -1]?.crossHigh ?? 0);
  const solidA = kind[a] === NODE || isBorder(kind[a]);
  const solidB = kind[b] === NODE || isBorder(kind[b]);
  const gap = solidA && solidB ? NODE_GAP : solidA || solidB ? EDGE_NODE_GAP : EDGE_EDGE_GAP;
  return aCross / 2 + aReach + gap + bCross / 2;
}

/** Blocks of pooled items while placing a rank: first index, total weight, weighted sum. */
export class Pool {
  first = new Int32Array(16);
  weight = new Float64Array(16);
  sum = new Float64Array(16);
  offset = new Float64Array(16);

  /** Room for `n` items. */
  fit(n: number): void {
    if (n <= this.first.length) return;
    const size = Math.max(n, this.first.length * 2);
    this.first = new Int32Array(size);
    this.weight = new Float64Array(size);
    this.sum = new Float64Array(size);
    this.offset = new Float64Array(size);
  }
}

/**
 * Places `n` items of one rank as near their wanted centres as the order and separations
 * allow, minimising the weighted squared distance to them: with each centre shifted by the
 * separations before it, this is an isotonic regression, solved exactly by pooling adjacent
 * violators. Item k wants `wanted[k]` with weight `weights[k]`; `gaps[at + k]` separates item
 * k-1 from item k. The centres go to `placed[k]`.
 */
export function placeRankInto(n: number, wanted: Float64Array, weights: Float64Array, gaps: Float64Array, at: number, placed: Float64Array, pool: Pool): void {
  pool.fit(n);
  const { first, weight, sum, offset } = pool;
  offset[0] = 0;
  for (let k = 1; k < n; k++) offset[k] = (offset[k - 1] ?? 0) + (gaps[at + k] ?? 0);
  let blocks = 0;
  for (let k = 0; k < n; k++) {
    const w = weights[k] ?? STAY_WEIGHT;
    first[blocks] = k;
    weight[blocks] = w;
    sum[blocks] = ((wanted[k] ?? 0) - (offset[k] ?? 0)) * w;
    blocks++;
    while (blocks > 1) {
      const last = blocks - 1;
      if ((sum[last - 1] ?? 0) / (weight[last - 1] ?? 1) <= (sum[last] ?? 0) / (weight[last] ?? 1)) break;
      weight[last - 1] = (weight[last - 1] ?? 0) + (weight[last] ?? 0);
      sum[last - 1] = (sum[last - 1] ?? 0) + (sum[last] ?? 0);
      blocks--;
    }
  }
  for (let b = 0; b < blocks; b++) {
    const value = (sum[b] ?? 0) / (weight[b] ?? 1);
    const end = b + 1 < blocks ? (first[b + 1] ?? n) : n;
    for (let k = first[b] ?? 0; k < end; k++) placed[k] = value + (offset[k] ?? 0);
  }
}

/** Each box's low and high border, by rank: the key is `2 * box` (low) or `2 * box + 1` (high). */
function bordersByBox(layering: Layering): Map<number, Map<number, number>> {
  const borders = new Map<number, Map<number, number>>();
  for (let i = 0; i < layering.count; i++) {
    const kind = layering.kind[i];
    if (!isBorder(kind)) continue;
    const key = 2 * (layering.cluster[i] ?? 0) + (kind === HIGH_BORDER ? 1 : 0);
    const byRank = borders.get(key) ?? new Map<number, number>();
    byRank.set(layering.rank[i] ?? 0, i);
    borders.set(key, byRank);
  }
  return borders;
}

/**
 * Cross-axis centres for every item: ranks packed tight, then swept down and up, each item
 * pulled towards the weighted mean of its neighbours in the rank just placed (both ranks in
 * the last sweeps), long edges held straightest and box borders towards the same border in
 * the ranks around. Finally every box's borders are lined up exactly (`packRanks`).
 */
export function assignCross(layering: Layering, clusters: readonly LayeredCluster[], adj: Adjacency): Float64Array {
  const { count, depth, layerStart, layerItems, kind } = layering;
  const x = new Float64Array(count);
  // gaps[k]: the separation of the item at layerItems[k] from the one before it in its rank.
  const gaps = new Float64Array(count);
  for (let r = 0; r < depth; r++) {
    let at = 0;
    for (let k = layerStart[r] ?? 0; k < (layerStart[r + 1] ?? 0); k++) {
      const item = layerItems[k] ?? 0;
      gaps[k] = k === layerStart[r] ? 0 : separation(layering, layerItems[k - 1] ?? 0, item, clusters);
      at += gaps[k] ?? 0;
      x[item] = at;
    }
  }
  const borders = bordersByBox(layering);
  let widest = 0;
  for (let r = 0; r < depth; r++) widest = Math.max(widest, (layerStart[r + 1] ?? 0) - (layerStart[r] ?? 0));
  const wanted = new Float64Array(widest);
  const weights = new Float64Array(widest);
  const placed = new Float64Array(widest);
  const pool = new Pool();
  const acc = { sum: 0, total: 0 };
  /** Adds the weighted positions of `item`'s neighbours in the rank above (`up`) and below (`down`) to `acc`. */
  const neighbours = (item: number, up: boolean, down: boolean) => {
    if (up) {
      for (let n = adj.upStart[item] ?? 0; n < (adj.upStart[item + 1] ?? 0); n++) {
        acc.sum += (x[adj.upItem[n] ?? 0] ?? 0) * (adj.upWeight[n] ?? 0);
        acc.total += adj.upWeight[n] ?? 0;
      }
    }
    if (down) {
      for (let n = adj.downStart[item] ?? 0; n < (adj.downStart[item + 1] ?? 0); n++) {
        acc.sum += (x[adj.downItem[n] ?? 0] ?? 0) * (adj.downWeight[n] ?? 0);
        acc.total += adj.downWeight[n] ?? 0;
      }
    }
  };
  const place = (r: number, up: boolean, down: boolean) => {
    const from = layerStart[r] ?? 0;
    const until = layerStart[r + 1] ?? 0;
    if (until - from === 1 && !isBorder(kind[layerItems[from] ?? 0])) {
      // Alone in its rank (every rank of a chain): straight under its neighbours' weighted mean.
      const only = layerItems[from] ?? 0;
      acc.sum = 0;
      acc.total = 0;
      neighbours(only, up, down);
      if (acc.total === 0) return 0;
      const moved = Math.abs(acc.sum / acc.total - (x[only] ?? 0));
      x[only] = acc.sum / acc.total;
      return moved;
    }
    for (let k = from; k < until; k++) {
      const item = layerItems[k] ?? 0;
      acc.sum = 0;
      acc.total = 0;
      if (isBorder(kind[item])) {
        // A border hugs what is inside its box, and lines up with itself in the ranks around.
        const low = kind[item] === LOW_BORDER;
        const innerAt = low ? k + 1 : k - 1;
        if (innerAt >= from && innerAt < until) {
          const inner = layerItems[innerAt] ?? 0;
          acc.sum += low ? (x[inner] ?? 0) - (gaps[k + 1] ?? 0) : (x[inner] ?? 0) + (gaps[k] ?? 0);
          acc.total += 1;
        }
        const same = borders.get(2 * (layering.cluster[item] ?? 0) + (low ? 0 : 1));
        for (const near of [r - 1, r + 1]) {
          const other = same?.get(near);
          if (other === undefined) continue;
          acc.sum += (x[other] ?? 0) * BORDER_WEIGHT;
          acc.total += BORDER_WEIGHT;
        }
      }
      neighbours(item, up, down);
      wanted[k - from] = acc.total === 0 ? (x[item] ?? 0) : acc.sum / acc.total;
      weights[k - from] = acc.total === 0 ? STAY_WEIGHT : acc.total;
    }
    placeRankInto(until - from, wanted, weights, gaps, from, placed, pool);
    let moved = 0;
    for (let k = from; k < until; k++) {
      const item = layerItems[k] ?? 0;
      const value = placed[k - from] ?? 0;
      moved = Math.max(moved, Math.abs(value - (x[item] ?? 0)));
      x[item] = value;
    }
    return moved;
  };
  // One-sided sweeps until nothing moves much, then two looking both ways.
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const both = sweep >= SWEEPS - 2;
    let moved = 0;
    for (let r = 1; r < depth; r++) moved = Math.max(moved, place(r, true, both));
    for (let r = depth - 2; r >= 0; r--) moved = Math.max(moved, place(r, both, true));
    if (!both && moved < SETTLED) sweep = SWEEPS - 3;
  }
  return packRanks(layering, gaps, x, [...borders.values()].map((byRank) => [...byRank.values()]));
}
