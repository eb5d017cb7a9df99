import { useReactFlow } from '@xyflow/react';
import { useCallback } from 'react';
import type { CanvasSelection } from '../flow/elementIds';
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../flow/flowTypes';
import { polylineMidpoint } from './edgePath';
import { nodeBounds } from './fitViewport';

/** Returns a function that pans (and if needed zooms) the canvas to centre an element. An
 * element React Flow was not given (a very large graph gives it only what is near the view)
 * is found in `laidOut`, the flow on the canvas. */
export function useFocusElement(laidOut: WorkflowFlow | null = null): (selection: NonNullable<CanvasSelection>) => void {
  const flow = useReactFlow<WorkflowFlowNode, WorkflowFlowEdge>();
  return useCallback(
    (selection) => {
      let center: { x: number; y: number } | null = null;
      if (selection.type === 'node') {
        const internal = flow.getInternalNode(selection.id);
        if (internal !== undefined) {
          const { x, y } = internal.internals.positionAbsolute;
          const width = internal.measured.width ?? internal.width ?? 0;
          const height = internal.measured.height ?? internal.height ?? 0;
          center = { x: x + width / 2, y: y + height / 2 };
        } else {
          const box = laidOut === null ? null : nodeBounds(laidOut.nodes, selection.id);
          if (box !== null) center = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        }
      } else {
        const data = (flow.getEdge(selection.id) ?? laidOut?.edges.find((e) => e.id === selection.id))?.data;
        const route = data?.route ?? null;
        center = data?.labelCenter ?? (route === null ? null : polylineMidpoint(route));
      }
      if (center === null) return;
      const zoom = Math.min(Math.max(flow.getZoom(), 0.9), 1.4);
      void flow.setCenter(center.x, center.y, { zoom, duration: 350 });
    },
    [flow, laidOut],
  );
}
