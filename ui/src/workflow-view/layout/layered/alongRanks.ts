import type { LayeredCluster } from './layeredInput';
import type { Layering } from './layering';

/** Gap between ranks, as on the ELK canvas; halved when every edge spans two ranks (labels). */
export const RANK_GAP = 56;
const BOX_CLEARANCE = 12;

/**
 * The centre of every rank on the along axis: each rank as thick as its thickest item, gaps of
 * `rankGap`, widened where boxes begin or end so a box's title and margins clear the rank
 * before or after it.
 */
export function rankCentres(layering: Layering, clusters: readonly LayeredCluster[], rankGap: number): number[] {
  const { items, layers } = layering;
  const thickness = layers.map((layer) => layer.reduce((most, item) => Math.max(most, items[item]?.along ?? 0), 0));
  const first = clusters.map(() => Infinity);
  const last = clusters.map(() => -Infinity);
  for (const item of items) {
    for (const c of clusters[item.cluster]?.path ?? []) {
      first[c] = Math.min(first[c] ?? Infinity, item.rank);
      last[c] = Math.max(last[c] ?? -Infinity, item.rank);
    }
  }
  const before = layers.map(() => 0);
  const after = layers.map(() => 0);
  clusters.forEach((cluster, c) => {
    const top = first[c];
    const bottom = last[c];
    if (top === undefined || bottom === undefined || !Number.isFinite(top) || !Number.isFinite(bottom)) return;
    before[top] = (before[top] ?? 0) + cluster.alongLow;
    after[bottom] = (after[bottom] ?? 0) + cluster.alongHigh;
  });
  const centres: number[] = [];
  let edge = 0;
  layers.forEach((_, r) => {
    if (r > 0) {
      const boxes = (after[r - 1] ?? 0) + (before[r] ?? 0);
      edge += Math.max(rankGap, boxes === 0 ? 0 : boxes + BOX_CLEARANCE);
    }
    const half = (thickness[r] ?? 0) / 2;
    centres.push(edge + half);
    edge += half * 2;
  });
  return centres;
}
