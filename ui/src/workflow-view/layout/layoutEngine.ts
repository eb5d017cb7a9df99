import type { ElkNode } from 'elkjs/lib/elk-api';
import type { WorkflowFlow } from '../flow/flowTypes';
import { applyLayout } from './applyLayout';
import { toElkGraph } from './toElkGraph';

/** Anything that lays out an ELK graph: the worker-backed ELK in the app, the bundled one in tests. */
export interface ElkLayouter {
  layout(graph: ElkNode): Promise<ElkNode>;
}

/** Lays a flow out with `elk` and returns it positioned. */
export async function layoutFlow(flow: WorkflowFlow, elk: ElkLayouter): Promise<WorkflowFlow> {
  const result = await elk.layout(toElkGraph(flow));
  return applyLayout(flow, result);
}
