import type { HandlerNodeData, NodeRunMark } from '../flow/flowTypes';

/**
 * The classes of a drawn handler node, in React Flow's node and in the sketch alike: its
 * kind's tone and shape, selection, worst diagnostic and run status (`run`, which the run
 * colours use).
 */
export function handlerNodeClasses(data: HandlerNodeData, selected: boolean, run: NodeRunMark | undefined): string[] {
  return [
    'handler-node',
    data.look.tone,
    `shape-${data.look.shape}`,
    selected ? 'is-selected' : '',
    data.diagnostics.worst === null ? '' : `has-${data.diagnostics.worst}`,
    run === undefined ? '' : `run-${run.status}`,
  ].filter((c) => c !== '');
}
