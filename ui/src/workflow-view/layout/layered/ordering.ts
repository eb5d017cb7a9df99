import { keyRuns } from './keyRuns';
import type { LayeredCluster } from './layeredInput';
import { HIGH_BORDER, isBorder, LOW_BORDER, NODE, type Layering } from './layering';

/**
 * Neighbours of each item in the rank above (`up…`) and below (`down…`), with the links'
 * weights: item i's are `upItem[upStart[i]]` to `upItem[upStart[i + 1] - 1]`, in link order.
 */
export interface Adjacency {
  upStart: Int32Array;
  upItem: Int32Array;
  upWeight: Float64Array;
  downStart: Int32Array;
  downItem: Int32Array;
  downWeight: Float64Array;
}

/** One side of every item's neighbours, as runs of one array (see `Adjacency`). */
export interface NeighbourRuns {
  start: Int32Array;
  item: Int32Array;
  weight: Float64Array;
}

export function upSide(adj: Adjacency): NeighbourRuns {
  return { start: adj.upStart, item: adj.upItem, weight: adj.upWeight };
}

export function downSide(adj: Adjacency): NeighbourRuns {
  return { start: adj.downStart, item: adj.downItem, weight: adj.downWeight };
}

/** Runs of `near` per item of `at` (0..count-1), in link order. */
function runs(count: number, at: Int32Array, near: Int32Array, weights: Float64Array): NeighbourRuns {
  const { start, order } = keyRuns(at, count);
  const item = new Int32Array(at.length);
  const weight = new Float64Array(at.length);
  for (let k = 0; k < order.length; k++) {
    const l = order[k] ?? 0;
    item[k] = near[l] ?? 0;
    weight[k] = weights[l] ?? 0;
  }
  return { start, item, weight };
}

/** The neighbours of `count` items joined by links `upper[l]`–`lower[l]` of weight `weight[l]`. */
export function adjacencyOf(count: number, upper: Int32Array, lower: Int32Array, weight: Float64Array): Adjacency {
  const up = runs(count, lower, upper, weight);
  const down = runs(count, upper, lower, weight);
  return { upStart: up.start, upItem: up.item, upWeight: up.weight, downStart: down.start, downItem: down.item, downWeight: down.weight };
}

export function adjacency(layering: Layering): Adjacency {
  return adjacencyOf(layering.count, layering.linkUpper, layering.linkLower, layering.linkWeight);
}

/** Sweeps down and up this many times, keeping the order with the fewest crossings. */
const SWEEPS = 6;

/** The ranks, as `crossings` reads them: rank r's items are `layerItems[layerStart[r]…layerStart[r + 1])`. */
export interface Ranks {
  depth: number;
  layerStart: Int32Array;
  layerItems: Int32Array;
}

/**
 * Orders every rank to keep edge crossings few: a depth-first first order (so chains stay in
 * line), then barycentre sweeps down and up. In every rank each box's items stay together
 * between its borders, and boxes side by side keep the same order in every rank (so they
 * never have to cross). Rewrites `layering.layerItems` in place.
 */
export function orderLayers(layering: Layering, clusters: readonly LayeredCluster[], adj: Adjacency): void {
  const { depth, layerStart, layerItems } = layering;
  depthFirstOrder(layering, adj);
  const position = new Float64Array(layering.count);
  const rememberRank = (r: number) => {
    for (let k = layerStart[r] ?? 0; k < (layerStart[r + 1] ?? 0); k++) position[layerItems[k] ?? 0] = k - (layerStart[r] ?? 0);
  };
  const remember = () => {
    for (let r = 0; r < depth; r++) rememberRank(r);
  };
  remember();
  const sorter = new RankSorter(layering, clusters);
  let boxOrder = siblingOrder(layering, clusters, position);
  for (let r = 0; r < depth; r++) sorter.sort(boxOrder, r, position);
  remember();
  let best = layerItems.slice();
  let fewest = crossings(layering, adj, position);
  const up = upSide(adj);
  const down = downSide(adj);
  const wanted = new Float64Array(layering.count);
  for (let sweep = 0; sweep < SWEEPS && fewest > 0; sweep++) {
    for (let r = 1; r < depth; r++) {
      barycentres(layering, r, up, position, wanted);
      sorter.sort(boxOrder, r, position);
      rememberRank(r);
    }
    for (let r = depth - 2; r >= 0; r--) {
      barycentres(layering, r, down, position, wanted);
      sorter.sort(boxOrder, r, position);
      rememberRank(r);
    }
    const count = crossings(layering, adj, position);
    if (count < fewest) {
      fewest = count;
      best = layerItems.slice();
    }
    boxOrder = siblingOrder(layering, clusters, position);
  }
  layerItems.set(best);
}

/** Ranks filled in the order a depth-first walk from the nodes (in document order) meets items. */
function depthFirstOrder(layering: Layering, adj: Adjacency): void {
  const { count, depth, layerStart, layerItems } = layering;
  const seen = new Uint8Array(count);
  const filled = layerStart.slice(0, depth);
  const stack: number[] = [];
  const visit = (start: number) => {
    stack.push(start);
    while (stack.length > 0) {
      const item = stack.pop() ?? 0;
      if (seen[item] === 1) continue;
      seen[item] = 1;
      const r = layering.rank[item] ?? 0;
      layerItems[filled[r] ?? 0] = item;
      filled[r] = (filled[r] ?? 0) + 1;
      for (let k = (adj.downStart[item + 1] ?? 0) - 1; k >= (adj.downStart[item] ?? 0); k--) {
        const target = adj.downItem[k] ?? 0;
        if (seen[target] === 0) stack.push(target);
      }
    }
  };
  for (let i = 0; i < count; i++) {
    if (layering.kind[i] === NODE && (adj.upStart[i + 1] ?? 0) === (adj.upStart[i] ?? 0)) visit(i);
  }
  for (let i = 0; i < count; i++) visit(i);
}

/**
 * Each item's wanted place in rank `r`: the weighted mean position of its neighbours in the
 * fixed rank (`side`); an item without any keeps its current place. Written into `position`,
 * which `RankSorter.sort` reads.
 */
function barycentres(layering: Layering, r: number, side: NeighbourRuns, position: Float64Array, wanted: Float64Array): void {
  const from = layering.layerStart[r] ?? 0;
  const until = layering.layerStart[r + 1] ?? 0;
  for (let k = from; k < until; k++) {
    const item = layering.layerItems[k] ?? 0;
    const first = side.start[item] ?? 0;
    const end = side.start[item + 1] ?? 0;
    if (end === first) {
      wanted[k] = position[item] ?? 0;
      continue;
    }
    let sum = 0;
    let weights = 0;
    for (let n = first; n < end; n++) {
      const weight = side.weight[n] ?? 0;
      sum += (position[side.item[n] ?? 0] ?? 0) * weight;
      weights += weight;
    }
    wanted[k] = sum / weights;
  }
  for (let k = from; k < until; k++) position[layering.layerItems[k] ?? 0] = wanted[k] ?? 0;
}

/**
 * Where each box stands among the boxes beside it (same parent), the same for every rank: by
 * the mean relative place (0 left to 1 right) of its items over all its ranks.
 */
function siblingOrder(layering: Layering, clusters: readonly LayeredCluster[], position: Float64Array): number[] {
  if (clusters.length === 0) return [];
  const sum = clusters.map(() => 0);
  const count = clusters.map(() => 0);
  for (let r = 0; r < layering.depth; r++) {
    const from = layering.layerStart[r] ?? 0;
    const until = layering.layerStart[r + 1] ?? 0;
    const span = Math.max(1, until - from - 1);
    for (let k = from; k < until; k++) {
      const item = layering.layerItems[k] ?? 0;
      const at = (position[item] ?? 0) / span;
      for (const c of clusters[layering.cluster[item] ?? -1]?.path ?? []) {
        sum[c] = (sum[c] ?? 0) + at;
        count[c] = (count[c] ?? 0) + 1;
      }
    }
  }
  const mean = clusters.map((_, c) => (sum[c] ?? 0) / Math.max(1, count[c] ?? 0));
  const sorted = clusters.map((_, c) => c).sort((a, b) => (mean[a] ?? 0) - (mean[b] ?? 0) || a - b);
  const order = clusters.map(() => 0);
  sorted.forEach((c, i) => (order[c] = i));
  return order;
}

/**
 * Sorts ranks by the keys in `position`, keeping boxes together: items are compared by the
 * first box (or item) where their paths from the top level part. A box stands for the mean key
 * of its items in the rank, raised where needed so boxes beside each other keep `boxOrder`; a
 * box's borders come first and last inside it. Keys of distinct units never tie (the last part
 * tells them apart), so the order is total.
 */
class RankSorter {
  /** Each item's place in its rank before the sort. */
  private readonly indexOf: Int32Array;
  private key = new Map<number, number>();
  private boxOrder: readonly number[] = [];
  private position: Float64Array = new Float64Array(0);

  constructor(
    private readonly layering: Layering,
    private readonly clusters: readonly LayeredCluster[],
  ) {
    this.indexOf = new Int32Array(layering.count);
  }

  sort(boxOrder: readonly number[], r: number, position: Float64Array): void {
    const { layering } = this;
    const from = layering.layerStart[r] ?? 0;
    const until = layering.layerStart[r + 1] ?? 0;
    if (until - from < 2) return;
    for (let k = from; k < until; k++) this.indexOf[layering.layerItems[k] ?? 0] = k - from;
    const layer = layering.layerItems.subarray(from, until);
    this.position = position;
    if (this.clusters.length === 0) {
      // No boxes: every item is its own unit.
      const indexOf = this.indexOf;
      layer.sort((a, b) => (position[a] ?? 0) - (position[b] ?? 0) || (indexOf[a] ?? 0) - (indexOf[b] ?? 0) || a - b);
      return;
    }
    this.boxOrder = boxOrder;
    this.key = this.boxKeys(layer);
    layer.sort((a, b) => this.compare(a, b));
  }

  /** Each box's key in this rank: where its items are (one with only its borders here, where they are). */
  private boxKeys(layer: Int32Array): Map<number, number> {
    const { layering, clusters, position } = this;
    const sums = new Map<number, { sum: number; count: number }>();
    const borderSums = new Map<number, { sum: number; count: number }>();
    for (const item of layer) {
      const target = isBorder(layering.kind[item]) ? borderSums : sums;
      for (const c of clusters[layering.cluster[item] ?? -1]?.path ?? []) {
        const s = target.get(c) ?? { sum: 0, count: 0 };
        s.sum += position[item] ?? 0;
        s.count += 1;
        target.set(c, s);
      }
    }
    for (const [c, s] of borderSums) if (!sums.has(c)) sums.set(c, s);
    // Boxes beside each other keep their order: keys rise along it.
    const key = new Map<number, number>();
    const byParent = new Map<number, number[]>();
    for (const c of sums.keys()) {
      const parent = clusters[c]?.parent ?? -1;
      const list = byParent.get(parent) ?? [];
      list.push(c);
      byParent.set(parent, list);
    }
    for (const siblings of byParent.values()) {
      siblings.sort((a, b) => (this.boxOrder[a] ?? 0) - (this.boxOrder[b] ?? 0));
      let floor = -Infinity;
      for (const c of siblings) {
        const s = sums.get(c);
        const mean = s === undefined ? 0 : s.sum / s.count;
        const k = Math.max(mean, floor + 1e-6);
        key.set(c, k);
        floor = k;
      }
    }
    return key;
  }

  /** The three parts of a unit's key: a box (`isItem` false) or an item. */
  private part(unit: number, isItem: boolean, part: number): number {
    if (!isItem) return part === 0 ? (this.key.get(unit) ?? 0) : part === 1 ? (this.boxOrder[unit] ?? 0) : -1 - unit;
    const kind = this.layering.kind[unit];
    if (kind === LOW_BORDER) return part === 0 ? -Infinity : part === 1 ? 0 : unit;
    if (kind === HIGH_BORDER) return part === 0 ? Infinity : part === 1 ? 0 : unit;
    return part === 0 ? (this.position[unit] ?? 0) : part === 1 ? (this.indexOf[unit] ?? 0) : unit;
  }

  private compare(a: number, b: number): number {
    // A border sits inside its own box, one level below the box itself.
    const pa = this.clusters[this.layering.cluster[a] ?? -1]?.path ?? [];
    const pb = this.clusters[this.layering.cluster[b] ?? -1]?.path ?? [];
    let i = 0;
    while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
    const ua = i < pa.length ? (pa[i] ?? 0) : a;
    const ub = i < pb.length ? (pb[i] ?? 0) : b;
    const ia = i >= pa.length;
    const ib = i >= pb.length;
    return (
      this.part(ua, ia, 0) - this.part(ub, ib, 0) ||
      this.part(ua, ia, 1) - this.part(ub, ib, 1) ||
      this.part(ua, ia, 2) - this.part(ub, ib, 2)
    );
  }
}

/** How many pairs of links cross between adjacent ranks, given each item's place in `position`. */
export function crossings(ranks: Ranks, adj: Adjacency, position: Float64Array): number {
  const { depth, layerStart, layerItems } = ranks;
  const pairCount = adj.downItem.length;
  const uppers = new Float64Array(pairCount);
  const lowers = new Float64Array(pairCount);
  const order = new Uint32Array(pairCount);
  let widest = 0;
  for (let r = 0; r < depth; r++) widest = Math.max(widest, (layerStart[r + 1] ?? 0) - (layerStart[r] ?? 0));
  const tree = new Int32Array(widest + 2);
  let total = 0;
  for (let r = 0; r + 1 < depth; r++) {
    let pairs = 0;
    for (let k = layerStart[r] ?? 0; k < (layerStart[r + 1] ?? 0); k++) {
      const item = layerItems[k] ?? 0;
      for (let n = adj.downStart[item] ?? 0; n < (adj.downStart[item + 1] ?? 0); n++) {
        uppers[pairs] = position[item] ?? 0;
        lowers[pairs] = position[adj.downItem[n] ?? 0] ?? 0;
        order[pairs] = pairs;
        pairs++;
      }
    }
    // One link crosses nothing.
    if (pairs < 2) continue;
    order.subarray(0, pairs).sort((a, b) => (uppers[a] ?? 0) - (uppers[b] ?? 0) || (lowers[a] ?? 0) - (lowers[b] ?? 0));
    // Count inversions of the lower ends with a Fenwick tree over positions.
    const size = (layerStart[r + 2] ?? 0) - (layerStart[r + 1] ?? 0) + 1;
    tree.fill(0, 0, size + 1);
    let seen = 0;
    for (let p = 0; p < pairs; p++) {
      const lower = lowers[order[p] ?? 0] ?? 0;
      let below = 0;
      for (let i = lower + 1; i > 0; i -= i & -i) below += i <= size ? (tree[i] ?? 0) : 0;
      total += seen - below;
      for (let i = lower + 1; i <= size; i += i & -i) tree[i] = (tree[i] ?? 0) + 1;
      seen += 1;
    }
  }
  return total;
}
