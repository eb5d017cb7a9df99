import type { LayeredInput } from './layeredInput';

/** What an item in a rank stands for. */
export type ItemKind = 'node' | 'bend' | 'label' | 'low-border' | 'high-border';

/**
 * One entry of a rank: a workflow node, a point a long edge passes through (`bend`), an edge's
 * label chip (a bend with a size), or one of the two invisible borders every box has in each
 * rank it spans: everything in the box lies between them, everything else outside, and the
 * borders of a box line up across its ranks, so no box is drawn over anything not in it.
 */
export interface Item {
  kind: ItemKind;
  /** The node's index for a `node`, the edge's for a `bend` or `label`, the box's for a border. */
  source: number;
  cross: number;
  along: number;
  /** Innermost box it belongs to (a border: its own box); -1 for none. */
  cluster: number;
  rank: number;
  /** Extra room on its high cross side (for a loop drawn beside a node). */
  reach: number;
}

/** Two items of adjacent ranks joined by (a part of) an edge; `upper` is in the lower-numbered rank. */
export interface Link {
  upper: number;
  lower: number;
  /** How strongly the layout tries to keep the two in line: long edges are kept straightest. */
  weight: number;
}

export interface Layering {
  items: Item[];
  /** Item indices per rank, in their order across the rank. */
  layers: number[][];
  /** Per edge: its items from the upper rank to the lower one (its ends included); empty for a loop. */
  chains: number[][];
  links: Link[];
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

/**
 * Puts the nodes in their ranks and splits every edge longer than one rank into bends (its
 * label chip on the first), then gives each box its two borders in every rank it spans.
 */
export function buildLayering(input: LayeredInput, rank: readonly number[]): Layering {
  const items: Item[] = input.nodes.map((node, i) => ({
    kind: 'node',
    source: i,
    cross: node.cross,
    along: node.along,
    cluster: node.cluster,
    rank: rank[i] ?? 0,
    reach: 0,
  }));
  const chains: number[][] = [];
  const links: Link[] = [];
  input.edges.forEach((edge, e) => {
    if (edge.from === edge.to) {
      const node = items[edge.from];
      if (node !== undefined) node.reach = Math.max(node.reach, LOOP_REACH + (edge.label?.cross ?? 0));
      chains.push([]);
      return;
    }
    const upper = edge.back ? edge.to : edge.from;
    const lower = edge.back ? edge.from : edge.to;
    const cluster = commonCluster(input, input.nodes[upper]?.cluster ?? -1, input.nodes[lower]?.cluster ?? -1);
    const chain = [upper];
    const top = rank[upper] ?? 0;
    const bottom = rank[lower] ?? 0;
    for (let r = top + 1; r < bottom; r++) {
      const labelled = r === top + 1 && edge.label !== null;
      chain.push(items.length);
      items.push({
        kind: labelled ? 'label' : 'bend',
        source: e,
        cross: labelled ? (edge.label?.cross ?? 0) : 0,
        along: labelled ? (edge.label?.along ?? 0) : 0,
        cluster,
        rank: r,
        reach: 0,
      });
    }
    chain.push(lower);
    for (let i = 1; i < chain.length; i++) {
      const a = chain[i - 1] ?? 0;
      const b = chain[i] ?? 0;
      const bends = (items[a]?.kind === 'node' ? 0 : 1) + (items[b]?.kind === 'node' ? 0 : 1);
      links.push({ upper: a, lower: b, weight: bends === 2 ? 8 : bends === 1 ? 2 : 1 });
    }
    chains.push(chain);
  });
  addBorders(input, items);
  const depth = items.reduce((most, item) => Math.max(most, item.rank), -1) + 1;
  const layers: number[][] = Array.from({ length: depth }, () => []);
  items.forEach((item, i) => layers[item.rank]?.push(i));
  return { items, layers, chains, links };
}

/** Two borders for each box in each rank from its first to its last. */
function addBorders(input: LayeredInput, items: Item[]): void {
  const first = input.clusters.map(() => Infinity);
  const last = input.clusters.map(() => -Infinity);
  for (const item of items) {
    for (const c of input.clusters[item.cluster]?.path ?? []) {
      first[c] = Math.min(first[c] ?? Infinity, item.rank);
      last[c] = Math.max(last[c] ?? -Infinity, item.rank);
    }
  }
  input.clusters.forEach((_, c) => {
    for (let r = first[c] ?? 0; r <= (last[c] ?? -1); r++) {
      for (const kind of ['low-border', 'high-border'] as const) {
        items.push({ kind, source: c, cross: 0, along: 0, cluster: c, rank: r, reach: 0 });
      }
    }
  });
}

/** Whether an item is one of a box's borders. */
export function isBorder(item: Item | undefined): boolean {
  return item?.kind === 'low-border' || item?.kind === 'high-border';
}
