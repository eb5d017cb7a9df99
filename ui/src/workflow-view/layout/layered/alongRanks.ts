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
export function rankCentres(layering: Layering, clusters: readonly LayeredCluster[], rankGap: number): Float64Array {
  const { depth, count } = layering;
  const thickness = new Float64Array(depth);
  for (let i = 0; i < count; i++) {
    const r = layering.rank[i] ?? 0;
    thickness[r] = Math.max(thickness[r] ?? 0, layering.along[i] ?? 0);
  }
  const before = new Float64Array(depth);
  const after = new Float64Array(depth);
  if (clusters.length > 0) {
    const first = clusters.map(() => Infinity);
    const last = clusters.map(() => -Infinity);
    for (let i = 0; i < count; i++) {
      const r = layering.rank[i] ?? 0;
      for (const c of clusters[layering.cluster[i] ?? -1]?.path ?? []) {
        first[c] = Math.min(first[c] ?? Infinity, r);
        last[c] = Math.max(last[c] ?? -Infinity, r);
      }
    }
    clusters.forEach((cluster, c) => {
      const top = first[c];
      const bottom = last[c];
      if (top === undefined || bottom === undefined || !Number.isFinite(top) || !Number.isFinite(bottom)) return;
      before[top] = (before[top] ?? 0) + cluster.alongLow;
      after[bottom] = (after[bottom] ?? 0) + cluster.alongHigh;
    });
  }
  const centres = new Float64Array(depth);
  let edge = 0;
  for (let r = 0; r < depth; r++) {
    if (r > 0) {
      const boxes = (after[r - 1] ?? 0) + (before[r] ?? 0);
      edge += Math.max(rankGap, boxes === 0 ? 0 : boxes + BOX_CLEARANCE);
    }
    const half = (thickness[r] ?? 0) / 2;
    centres[r] = edge + half;
    edge += half * 2;
  }
  return centres;
}
