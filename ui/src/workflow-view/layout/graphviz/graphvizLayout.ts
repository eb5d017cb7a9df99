import type { WorkflowFlow } from '../../flow/flowTypes';
import { applyGraphvizPlacement } from './applyGraphvizPlacement';
import { toGraphvizDot } from './graphvizDot';
import type { GraphvizPlacement } from './graphvizJson';

/** Anything that lays out DOT with Graphviz's `dot`: the worker in the app, the wasm directly in tests. */
export interface GraphvizLayouter {
  layout(dot: string): Promise<GraphvizPlacement>;
}

/** Lays a flow out with Graphviz and returns it positioned, as `layoutFlow` does with ELK. */
export async function layoutFlowWithGraphviz(
  flow: WorkflowFlow,
  graphviz: GraphvizLayouter,
): Promise<WorkflowFlow> {
  const input = toGraphvizDot(flow);
  return applyGraphvizPlacement(flow, input, await graphviz.layout(input.dot));
}
