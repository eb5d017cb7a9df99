import type { GraphvizPlacement } from './graphvizJson';

/** What the page asks the Graphviz worker: lay out this DOT. */
export interface GraphvizRequest {
  id: number;
  dot: string;
}

/** What the worker answers, under the request's id. */
export type GraphvizResponse =
  | { id: number; placement: GraphvizPlacement }
  | { id: number; error: string };
