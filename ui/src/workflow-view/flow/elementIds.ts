import type { EdgeKey } from '../../generated/EdgeKey';

/**
 * Ids of canvas elements. Handler nodes keep the workflow's node id (DOT ids cannot contain
 * `#` or `>`), subgraph boxes and edges get ids that cannot clash with it.
 */

/** Canvas id of an edge: `from->to#occurrence`. */
export function edgeId(key: EdgeKey): string {
  return `${key.from}->${key.to}#${key.occurrence}`;
}

/** Canvas id of the box drawn for `Workflow.subgraphs[index]`. */
export function subgraphId(index: number): string {
  return `subgraph#${index}`;
}

/** What is selected on the canvas. */
export type CanvasSelection = { type: 'node'; id: string } | { type: 'edge'; id: string } | null;
