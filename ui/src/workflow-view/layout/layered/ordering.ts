import type { LayeredCluster } from './layeredInput';
import { isBorder, type Layering } from './layering';

/** Neighbours of each item in the rank above and below, with the links' weights. */
export interface Adjacency {
  up: { item: number; weight: number }[][];
  down: { item: number; weight: number }[][];
}

export function adjacency(layering: Layering): Adjacency {
  const up = layering.items.map(() => [] as { item: number; weight: number }[]);
  const down = layering.items.map(() => [] as { item: number; weight: number }[]);
  for (const link of layering.links) {
    down[link.upper]?.push({ item: link.lower, weight: link.weight });
    up[link.lower]?.push({ item: link.upper, weight: link.weight });
  }
  return { up, down };
}

/** Sweeps down and up this many times, keeping the order with the fewest crossings. */
const SWEEPS = 6;

/**
 * Orders every rank to keep edge crossings few: a depth-first first order (so chains stay in
 * line), then barycentre sweeps down and up. In every rank each box's items stay together
 * between its borders, and boxes side by side keep the same order in every rank (so they
 * never have to cross). Rewrites `layering.layers` in place.
 */
export function orderLayers(layering: Layering, clusters: readonly LayeredCluster[], adj: Adjacency): void {
  const { layers } = layering;
  depthFirstOrder(layering, adj);
  const position = new Float64Array(layering.items.length);
  const remember = () => layers.forEach((layer) => layer.forEach((item, i) => (position[item] = i)));
  remember();
  let boxOrder = siblingOrder(layering, clusters, position);
  for (let r = 0; r < layers.length; r++) sortRank(layering, clusters, boxOrder, r, position);
  remember();
  let best = layers.map((layer) => [...layer]);
  let fewest = crossings(layers, adj, position);
  for (let sweep = 0; sweep < SWEEPS && fewest > 0; sweep++) {
    for (let r = 1; r < layers.length; r++) {
      barycentres(layers[r] ?? [], adj.up, position);
      sortRank(layering, clusters, boxOrder, r, position);
      (layers[r] ?? []).forEach((item, i) => (position[item] = i));
    }
    for (let r = layers.length - 2; r >= 0; r--) {
      barycentres(layers[r] ?? [], adj.down, position);
      sortRank(layering, clusters, boxOrder, r, position);
      (layers[r] ?? []).forEach((item, i) => (position[item] = i));
    }
    const count = crossings(layers, adj, position);
    if (count < fewest) {
      fewest = count;
      best = layers.map((layer) => [...layer]);
    }
    boxOrder = siblingOrder(layering, clusters, position);
  }
  best.forEach((layer, r) => (layers[r] = layer));
}

/** Ranks filled in the order a depth-first walk from the nodes (in document order) meets items. */
function depthFirstOrder(layering: Layering, adj: Adjacency): void {
  const seen = new Uint8Array(layering.items.length);
  const layers: number[][] = layering.layers.map(() => []);
  const visit = (start: number) => {
    const stack = [start];
    while (stack.length > 0) {
      const item = stack.pop() ?? 0;
      if (seen[item] === 1) continue;
      seen[item] = 1;
      layers[layering.items[item]?.rank ?? 0]?.push(item);
      const next = adj.down[item] ?? [];
      for (let i = next.length - 1; i >= 0; i--) {
        const target = next[i]?.item ?? 0;
        if (seen[target] === 0) stack.push(target);
      }
    }
  };
  layering.items.forEach((item, i) => {
    if (item.kind === 'node' && (adj.up[i]?.length ?? 0) === 0) visit(i);
  });
  layering.items.forEach((_, i) => visit(i));
  layers.forEach((layer, r) => (layering.layers[r] = layer));
}

/**
 * Each item's wanted place: the weighted mean position of its neighbours in the fixed rank
 * (`side`); an item without any keeps its current place. Written into `position`, which
 * `sortRank` reads.
 */
function barycentres(layer: readonly number[], side: Adjacency['up'], position: Float64Array): void {
  const wanted = layer.map((item) => {
    const neighbours = side[item] ?? [];
    if (neighbours.length === 0) return position[item] ?? 0;
    let sum = 0;
    let weights = 0;
    for (const n of neighbours) {
      sum += (position[n.item] ?? 0) * n.weight;
      weights += n.weight;
    }
    return sum / weights;
  });
  layer.forEach((item, i) => (position[item] = wanted[i] ?? 0));
}

/**
 * Where each box stands among the boxes beside it (same parent), the same for every rank: by
 * the mean relative place (0 left to 1 right) of its items over all its ranks.
 */
function siblingOrder(layering: Layering, clusters: readonly LayeredCluster[], position: Float64Array): number[] {
  const sum = clusters.map(() => 0);
  const count = clusters.map(() => 0);
  layering.layers.forEach((layer) => {
    const span = Math.max(1, layer.length - 1);
    for (const item of layer) {
      const at = (position[item] ?? 0) / span;
      for (const c of clusters[layering.items[item]?.cluster ?? -1]?.path ?? []) {
        sum[c] = (sum[c] ?? 0) + at;
        count[c] = (count[c] ?? 0) + 1;
      }
    }
  });
  const mean = clusters.map((_, c) => (sum[c] ?? 0) / Math.max(1, count[c] ?? 0));
  const sorted = clusters.map((_, c) => c).sort((a, b) => (mean[a] ?? 0) - (mean[b] ?? 0) || a - b);
  const order = clusters.map(() => 0);
  sorted.forEach((c, i) => (order[c] = i));
  return order;
}

/**
 * Sorts rank `r` by the keys in `position`, keeping boxes together: items are compared by
 * the first box (or item) where their paths from the top level part. A box stands for the
 * mean key of its items in this rank, raised where needed so boxes beside each other keep
 * `boxOrder`; a box's borders come first and last inside it.
 */
function sortRank(
  layering: Layering,
  clusters: readonly LayeredCluster[],
  boxOrder: readonly number[],
  r: number,
  position: Float64Array,
): void {
  const layer = layering.layers[r];
  if (layer === undefined || layer.length < 2) return;
  // A box stands where its items are; one with only its borders in this rank, where they are.
  const sums = new Map<number, { sum: number; count: number }>();
  const borderSums = new Map<number, { sum: number; count: number }>();
  for (const item of layer) {
    const it = layering.items[item];
    if (it === undefined) continue;
    const target = isBorder(it) ? borderSums : sums;
    for (const c of clusters[it.cluster]?.path ?? []) {
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
    siblings.sort((a, b) => (boxOrder[a] ?? 0) - (boxOrder[b] ?? 0));
    let floor = -Infinity;
    for (const c of siblings) {
      const s = sums.get(c);
      const mean = s === undefined ? 0 : s.sum / s.count;
      const k = Math.max(mean, floor + 1e-6);
      key.set(c, k);
      floor = k;
    }
  }
  const indexOf = new Map(layer.map((item, i) => [item, i]));
  // Keys of distinct units never tie (the last part tells them apart), so the order is total.
  const unitKey = (unit: number, isItem: boolean): [number, number, number] => {
    if (!isItem) return [key.get(unit) ?? 0, boxOrder[unit] ?? 0, -1 - unit];
    const kind = layering.items[unit]?.kind;
    if (kind === 'low-border') return [-Infinity, 0, unit];
    if (kind === 'high-border') return [Infinity, 0, unit];
    return [position[unit] ?? 0, indexOf.get(unit) ?? 0, unit];
  };
  // A border sits inside its own box, one level below the box itself.
  const pathOf = (item: number) => clusters[layering.items[item]?.cluster ?? -1]?.path ?? [];
  layer.sort((a, b) => {
    const pa = pathOf(a);
    const pb = pathOf(b);
    let i = 0;
    while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
    const ka = i < pa.length ? unitKey(pa[i] ?? 0, false) : unitKey(a, true);
    const kb = i < pb.length ? unitKey(pb[i] ?? 0, false) : unitKey(b, true);
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
  });
}

/** How many pairs of links cross between adjacent ranks, given each item's place in `position`. */
export function crossings(layers: readonly number[][], adj: Adjacency, position: Float64Array): number {
  let total = 0;
  for (let r = 0; r + 1 < layers.length; r++) {
    const pairs: [number, number][] = [];
    for (const item of layers[r] ?? []) {
      for (const n of adj.down[item] ?? []) pairs.push([position[item] ?? 0, position[n.item] ?? 0]);
    }
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    // Count inversions of the lower ends with a Fenwick tree over positions.
    const size = (layers[r + 1]?.length ?? 0) + 1;
    const tree = new Int32Array(size + 1);
    let seen = 0;
    for (const [, lower] of pairs) {
      let below = 0;
      for (let i = lower + 1; i > 0; i -= i & -i) below += tree[i] ?? 0;
      total += seen - below;
      for (let i = lower + 1; i <= size; i += i & -i) tree[i] = (tree[i] ?? 0) + 1;
      seen += 1;
    }
  }
  return total;
}
