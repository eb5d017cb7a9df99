import { MiniMap, useStore } from '@xyflow/react';
import { useMemo } from 'react';
import type { WorkflowFlow, WorkflowFlowNode } from '../flow/flowTypes';
import { drawingBounds, isWholeInView } from './fitViewport';

function minimapClass(node: WorkflowFlowNode): string {
  return node.type === 'handler' ? `minimap-node ${node.data.look.tone}` : 'minimap-group';
}

/**
 * The minimap, while part of the graph is out of view: with the whole graph on the canvas it
 * would show nothing more, and only cover the graph's bottom-right corner. Inside `ReactFlow`.
 */
export function OverviewMap({ flow }: { flow: WorkflowFlow }) {
  const bounds = useMemo(() => drawingBounds(flow.nodes), [flow.nodes]);
  const whole = useStore((s) => isWholeInView(bounds, s.transform, s.width, s.height));
  if (whole) return null;
  return (
    <MiniMap
      position="bottom-right"
      pannable
      zoomable
      nodeClassName={minimapClass}
      nodeBorderRadius={6}
      ariaLabel="Workflow overview"
      style={{ width: 176, height: 124 }}
    />
  );
}
