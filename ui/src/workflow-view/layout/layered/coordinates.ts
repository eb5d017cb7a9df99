import type { LayeredCluster } from './layeredInput';
import { isBorder, type Item, type Layering } from './layering';
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

/** Whether `item` lies inside box `cluster` (a border of it included). */
function inside(item: Item, cluster: number, clusters: readonly LayeredCluster[]): boolean {
  return clusters[item.cluster]?.path.includes(cluster) ?? false;
}

/**
 * The least distance between the centres of two items next to each other in a rank (`a` on
 * the low side): from a box's low border to what is inside it, its room on that side; from
 * what is inside to its high border, the room on the high side; between anything else, half of
 * each and a gap (wider between two nodes than where an edge passes).
 */
export function separation(a: Item, b: Item, clusters: readonly LayeredCluster[]): number {
  if (a.kind === 'low-border' && inside(b, a.cluster, clusters)) return (clusters[a.cluster]?.crossLow ?? 0) + b.cross / 2;
  if (b.kind === 'high-border' && inside(a, b.cluster, clusters)) return a.cross / 2 + a.reach + (clusters[b.cluster]?.crossHigh ?? 0);
  const solid = (item: Item) => item.kind === 'node' || isBorder(item);
  const gap = solid(a) && solid(b) ? NODE_GAP : solid(a) || solid(b) ? EDGE_NODE_GAP : EDGE_EDGE_GAP;
  return a.cross / 2 + a.reach + gap + b.cross / 2;
}

/**
 * Places the items of one rank as near their wanted centres as the order and separations
 * allow, minimising the weighted squared distance to them: with each centre shifted by the
 * separations before it, this is an isotonic regression, solved exactly by pooling adjacent
 * violators. `gaps[k]` separates item k-1 from item k.
 */
export function placeRank(wanted: readonly number[], weights: readonly number[], gaps: readonly number[]): number[] {
  const n = wanted.length;
  const offset = new Float64Array(n);
  for (let k = 1; k < n; k++) offset[k] = (offset[k - 1] ?? 0) + (gaps[k] ?? 0);
  // Blocks of pooled items: first index, total weight, weighted sum.
  const first: number[] = [];
  const weight: number[] = [];
  const sum: number[] = [];
  for (let k = 0; k < n; k++) {
    const w = weights[k] ?? STAY_WEIGHT;
    first.push(k);
    weight.push(w);
    sum.push(((wanted[k] ?? 0) - (offset[k] ?? 0)) * w);
    while (first.length > 1) {
      const last = first.length - 1;
      if ((sum[last - 1] ?? 0) / (weight[last - 1] ?? 1) <= (sum[last] ?? 0) / (weight[last] ?? 1)) break;
      weight[last - 1] = (weight[last - 1] ?? 0) + (weight[last] ?? 0);
      sum[last - 1] = (sum[last - 1] ?? 0) + (sum[last] ?? 0);
      first.pop();
      weight.pop();
      sum.pop();
    }
  }
  const placed = new Array<number>(n);
  for (let b = 0; b < first.length; b++) {
    const value = (sum[b] ?? 0) / (weight[b] ?? 1);
    const end = first[b + 1] ?? n;
    for (let k = first[b] ?? 0; k < end; k++) placed[k] = value + (offset[k] ?? 0);
  }
  return placed;
}

/** Per box and side, its border item in each rank (by rank). */
function bordersByBox(layering: Layering): Map<string, Map<number, number>> {
  const borders = new Map<string, Map<number, number>>();
  layering.items.forEach((item, i) => {
    if (!isBorder(item)) return;
    const key = `${item.kind}:${item.cluster}`;
    const byRank = borders.get(key) ?? new Map<number, number>();
    byRank.set(item.rank, i);
    borders.set(key, byRank);
  });
  return borders;
}

/**
 * Cross-axis centres for every item: ranks packed tight, then swept down and up, each item
 * pulled towards the weighted mean of its neighbours in the rank just placed (both ranks in
 * the last sweeps), long edges held straightest and box borders towards the same border in
 * the ranks around. Finally every box's borders are lined up exactly (`packRanks`).
 */
export function assignCross(layering: Layering, clusters: readonly LayeredCluster[], adj: Adjacency): Float64Array {
  const { items, layers } = layering;
  const x = new Float64Array(items.length);
  const gaps = layers.map((layer) =>
    layer.map((item, k) => (k === 0 ? 0 : separation(items[layer[k - 1] ?? 0] as Item, items[item] as Item, clusters))),
  );
  layers.forEach((layer, r) => {
    let at = 0;
    layer.forEach((item, k) => {
      at += gaps[r]?.[k] ?? 0;
      x[item] = at;
    });
  });
  const borders = bordersByBox(layering);
  const place = (r: number, sides: readonly Adjacency['up'][]) => {
    const layer = layers[r] ?? [];
    const only = layer.length === 1 ? layer[0] : undefined;
    if (only !== undefined && !isBorder(items[only])) {
      // Alone in its rank (every rank of a chain): straight under its neighbours' weighted mean.
      let sum = 0;
      let total = 0;
      for (const side of sides) {
        for (const n of side[only] ?? []) {
          sum += (x[n.item] ?? 0) * n.weight;
          total += n.weight;
        }
      }
      if (total === 0) return 0;
      const moved = Math.abs(sum / total - (x[only] ?? 0));
      x[only] = sum / total;
      return moved;
    }
    const wanted: number[] = [];
    const weights: number[] = [];
    layer.forEach((item, k) => {
      let sum = 0;
      let total = 0;
      const it = items[item];
      if (it !== undefined && isBorder(it)) {
        // A border hugs what is inside its box, and lines up with itself in the ranks around.
        const low = it.kind === 'low-border';
        const inner = layer[low ? k + 1 : k - 1];
        if (inner !== undefined) {
          sum += low ? (x[inner] ?? 0) - (gaps[r]?.[k + 1] ?? 0) : (x[inner] ?? 0) + (gaps[r]?.[k] ?? 0);
          total += 1;
        }
        const same = borders.get(`${it.kind}:${it.cluster}`);
        for (const near of [r - 1, r + 1]) {
          const other = same?.get(near);
          if (other === undefined) continue;
          sum += (x[other] ?? 0) * BORDER_WEIGHT;
          total += BORDER_WEIGHT;
        }
      }
      for (const side of sides) {
        for (const n of side[item] ?? []) {
          sum += (x[n.item] ?? 0) * n.weight;
          total += n.weight;
        }
      }
      wanted.push(total === 0 ? (x[item] ?? 0) : sum / total);
      weights.push(total === 0 ? STAY_WEIGHT : total);
    });
    let moved = 0;
    placeRank(wanted, weights, gaps[r] ?? []).forEach((value, k) => {
      const item = layer[k] ?? 0;
      moved = Math.max(moved, Math.abs(value - (x[item] ?? 0)));
      x[item] = value;
    });
    return moved;
  };
  // One-sided sweeps until nothing moves much, then two looking both ways.
  const up = [adj.up];
  const down = [adj.down];
  const around = [adj.up, adj.down];
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const both = sweep >= SWEEPS - 2;
    let moved = 0;
    for (let r = 1; r < layers.length; r++) moved = Math.max(moved, place(r, both ? around : up));
    for (let r = layers.length - 2; r >= 0; r--) moved = Math.max(moved, place(r, both ? around : down));
    if (!both && moved < SETTLED) sweep = SWEEPS - 3;
  }
  return packRanks(layering, gaps, x, [...borders.values()].map((byRank) => [...byRank.values()]));
}
