import { keyRuns } from './keyRuns';
import { isLabelled, type LayeredInput } from './layeredInput';

/**
 * What an item in a rank stands for: a workflow node, a point a long edge passes through
 * (`BEND`), an edge's label chip (a bend with a size), or one of the two invisible borders
 * every box has in each rank it spans: everything in the box lies between them, everything
 * else outside, and the borders of a box line up across its ranks, so no box is drawn over
 * anything not in it.
 */
export const NODE = 0;
export const BEND = 1;
export const LABEL = 2;
export const LOW_BORDER = 3;
export const HIGH_BORDER = 4;

/**
 * The ranks and what is in them, as typed arrays indexed by item (nodes first, with the
 * nodes' own numbers, then bends and labels edge by edge, then borders box by box). Each
 * rank's items, each edge's chain and each item's neighbours are runs of one array each
 * (`…Start[i]` to `…Start[i + 1]`), so a graph of 20,000 ranks needs no array per rank.
 */
export interface Layering {
  count: number;
  /** NODE, BEND, LABEL, LOW_BORDER or HIGH_BORDER. */
  kind: Uint8Array;
  /** The node's index for a node, the edge's for a bend or label, the box's for a border. */
  source: Int32Array;
  cross: Float64Array;
  along: Float64Array;
  /** Innermost box each item belongs to (a border: its own box); -1 for none. */
  cluster: Int32Array;
  rank: Int32Array;
  /** Extra room on its high cross side (for a loop drawn beside a node). */
  reach: Float64Array;
  depth: number;
  /** Item indices per rank, in their order across the rank: rank r is `layerStart[r]` to `layerStart[r + 1]`. */
  layerStart: Int32Array;
  layerItems: Int32Array;
  /** Per edge: its items from the upper rank to the lower one (its ends included); empty for a loop. */
  chainStart: Int32Array;
  chainItems: Int32Array;
  /**
   * Links join two items of adjacent ranks by (a part of) an edge; `linkUpper` is in the
   * lower-numbered rank. Each link's weight says how strongly the layout tries to keep the two
   * in line: long edges are kept straightest.
   */
  linkUpper: Int32Array;
  linkLower: Int32Array;
  linkWeight: Float64Array;
}

/** Room beside a node for its self-loop. */
export const LOOP_REACH = 28;

/** The innermost box holding both `a` and `b` (-1 for the top level). */
function commonCluster(input: LayeredInput, a: number, b: number): number {
  const pa = input.clusters[a]?.path ?? [];
  const pb = input.clusters[b]?.path ?? [];
  let common = -1;
  for (let i = 0; i < pa.length && pa[i] === pb[i]; i++) common = pa[i] ?? -1;
  return common;
}

/** The edge's upper and lower node (a back edge is laid out reversed). */
function ends(input: LayeredInput, e: number): [number, number] {
  const from = input.edgeFrom[e] ?? 0;
  const to = input.edgeTo[e] ?? 0;
  return input.back[e] === 1 ? [to, from] : [from, to];
}

/**
 * Puts the nodes in their ranks and splits every edge longer than one rank into bends (its
 * label chip on the first), then gives each box its two borders in every rank it spans.
 */
export function buildLayering(input: LayeredInput, rank: Int32Array): Layering {
  const { nodeCount, edgeCount, clusters } = input;
  // How many bends there are, and how long each chain is.
  const chainStart = new Int32Array(edgeCount + 1);
  let bends = 0;
  for (let e = 0; e < edgeCount; e++) {
    let length = 0;
    if (input.edgeFrom[e] !== input.edgeTo[e]) {
      const [upper, lower] = ends(input, e);
      const span = Math.max(0, (rank[lower] ?? 0) - (rank[upper] ?? 0) - 1);
      bends += span;
      length = span + 2;
    }
    chainStart[e + 1] = (chainStart[e] ?? 0) + length;
  }
  // The ranks every box spans, over its nodes and bends: each box has two borders in each.
  const first = clusters.map(() => Infinity);
  const last = clusters.map(() => -Infinity);
  const spanBoxes = (cluster: number, r: number) => {
    for (const c of clusters[cluster]?.path ?? []) {
      first[c] = Math.min(first[c] ?? Infinity, r);
      last[c] = Math.max(last[c] ?? -Infinity, r);
    }
  };
  let borders = 0;
  if (clusters.length > 0) {
    for (let n = 0; n < nodeCount; n++) spanBoxes(input.nodeCluster[n] ?? -1, rank[n] ?? 0);
    for (let e = 0; e < edgeCount; e++) {
      if (input.edgeFrom[e] === input.edgeTo[e]) continue;
      const [upper, lower] = ends(input, e);
      const cluster = commonCluster(input, input.nodeCluster[upper] ?? -1, input.nodeCluster[lower] ?? -1);
      for (let r = (rank[upper] ?? 0) + 1; r < (rank[lower] ?? 0); r++) spanBoxes(cluster, r);
    }
    clusters.forEach((_, c) => (borders += 2 * Math.max(0, (last[c] ?? -1) - (first[c] ?? 0) + 1)));
  }

  const count = nodeCount + bends + borders;
  const kind = new Uint8Array(count);
  const source = new Int32Array(count);
  const cross = new Float64Array(count);
  const along = new Float64Array(count);
  const cluster = new Int32Array(count);
  const ranks = new Int32Array(count);
  const reach = new Float64Array(count);
  for (let n = 0; n < nodeCount; n++) {
    source[n] = n;
    cross[n] = input.nodeCross[n] ?? 0;
    along[n] = input.nodeAlong[n] ?? 0;
    cluster[n] = input.nodeCluster[n] ?? -1;
    ranks[n] = rank[n] ?? 0;
  }
  const chainItems = new Int32Array(chainStart[edgeCount] ?? 0);
  const linkCount = (chainStart[edgeCount] ?? 0) - (edgeCount - selfLoops(input));
  const linkUpper = new Int32Array(Math.max(0, linkCount));
  const linkLower = new Int32Array(Math.max(0, linkCount));
  const linkWeight = new Float64Array(Math.max(0, linkCount));
  let item = nodeCount;
  let link = 0;
  for (let e = 0; e < edgeCount; e++) {
    const from = input.edgeFrom[e] ?? 0;
    if (from === input.edgeTo[e]) {
      reach[from] = Math.max(reach[from] ?? 0, LOOP_REACH + (isLabelled(input, e) ? (input.labelCross[e] ?? 0) : 0));
      continue;
    }
    const [upper, lower] = ends(input, e);
    const common = commonCluster(input, input.nodeCluster[upper] ?? -1, input.nodeCluster[lower] ?? -1);
    let at = chainStart[e] ?? 0;
    chainItems[at++] = upper;
    const top = rank[upper] ?? 0;
    const bottom = rank[lower] ?? 0;
    for (let r = top + 1; r < bottom; r++) {
      const labelled = r === top + 1 && isLabelled(input, e);
      chainItems[at++] = item;
      kind[item] = labelled ? LABEL : BEND;
      source[item] = e;
      cross[item] = labelled ? (input.labelCross[e] ?? 0) : 0;
      along[item] = labelled ? (input.labelAlong[e] ?? 0) : 0;
      cluster[item] = common;
      ranks[item] = r;
      item++;
    }
    chainItems[at++] = lower;
    for (let k = (chainStart[e] ?? 0) + 1; k < at; k++) {
      const a = chainItems[k - 1] ?? 0;
      const b = chainItems[k] ?? 0;
      const bent = (kind[a] === NODE ? 0 : 1) + (kind[b] === NODE ? 0 : 1);
      linkUpper[link] = a;
      linkLower[link] = b;
      linkWeight[link] = bent === 2 ? 8 : bent === 1 ? 2 : 1;
      link++;
    }
  }
  clusters.forEach((_, c) => {
    for (let r = first[c] ?? 0; r <= (last[c] ?? -1); r++) {
      for (const side of [LOW_BORDER, HIGH_BORDER]) {
        kind[item] = side;
        source[item] = c;
        cluster[item] = c;
        ranks[item] = r;
        item++;
      }
    }
  });
  let depth = 0;
  for (let i = 0; i < count; i++) depth = Math.max(depth, (ranks[i] ?? 0) + 1);
  // Each rank's items, in item order (the ordering rewrites them).
  const { start: layerStart, order: layerItems } = keyRuns(ranks, depth);
  return {
    count,
    kind,
    source,
    cross,
    along,
    cluster,
    rank: ranks,
    reach,
    depth,
    layerStart,
    layerItems,
    chainStart,
    chainItems,
    linkUpper,
    linkLower,
    linkWeight,
  };
}

/** How many of the input's edges are self-loops. */
function selfLoops(input: LayeredInput): number {
  let loops = 0;
  for (let e = 0; e < input.edgeCount; e++) if (input.edgeFrom[e] === input.edgeTo[e]) loops++;
  return loops;
}

/** Whether an item is one of a box's borders. */
export function isBorder(kind: number | undefined): boolean {
  return kind === LOW_BORDER || kind === HIGH_BORDER;
}
