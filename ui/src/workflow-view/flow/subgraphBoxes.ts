import type { SubgraphInfo } from '../../generated/SubgraphInfo';

/**
 * A subgraph is drawn as a box when it means something to the reader: it has a label or is
 * a Graphviz cluster (`subgraph cluster_x`), and holds at least one node. Anonymous
 * grouping subgraphs (`{ rank=same; a; b }`) are not drawn.
 */
export function isDrawnSubgraph(subgraph: SubgraphInfo): boolean {
  const labelled = subgraph.label !== null && subgraph.label.trim() !== '';
  const cluster = subgraph.id !== null && subgraph.id.startsWith('cluster');
  return (labelled || cluster) && subgraph.nodes.length > 0;
}

/** The box's title: its label, else its name without the `cluster` prefix. */
export function subgraphTitle(subgraph: SubgraphInfo): string {
  if (subgraph.label !== null && subgraph.label.trim() !== '') return subgraph.label.trim();
  const name = (subgraph.id ?? '').replace(/^cluster_?/, '');
  return name === '' ? 'Group' : name;
}

/**
 * From subgraph `start` (an index, or null) up through its parents, the first one that is
 * drawn; null when none is.
 */
export function nearestDrawn(
  subgraphs: readonly SubgraphInfo[],
  start: number | null,
): number | null {
  const seen = new Set<number>();
  let current = start;
  while (current !== null && !seen.has(current)) {
    seen.add(current);
    const subgraph = subgraphs[current];
    if (subgraph === undefined) return null;
    if (isDrawnSubgraph(subgraph)) return current;
    current = subgraph.parent;
  }
  return null;
}

/** How many drawn boxes enclose subgraph `index` (0 for a top-level one). */
export function drawnDepth(subgraphs: readonly SubgraphInfo[], index: number): number {
  let depth = 0;
  let parent = nearestDrawn(subgraphs, subgraphs[index]?.parent ?? null);
  const seen = new Set<number>();
  while (parent !== null && !seen.has(parent)) {
    seen.add(parent);
    depth += 1;
    parent = nearestDrawn(subgraphs, subgraphs[parent]?.parent ?? null);
  }
  return depth;
}
