import { ControlButton, useReactFlow, useStoreApi, type FitViewOptions } from '@xyflow/react';
import { useCallback } from 'react';
import type { WorkflowFlow } from '../flow/flowTypes';
import { fitViewport, type FitPadding } from './fitViewport';

/** How the canvas fits the whole graph in view: what the fit button and a change of layout engine do. */
export type FitWhole = (duration?: number) => void;

/**
 * Fits all of `flow` in view (inside `ReactFlow`). React Flow's own fit sees only the nodes it
 * was given, so a windowed graph (see `viewportWindow`) is fitted from the flow itself.
 */
export function useFitWhole(flow: WorkflowFlow, windowed: boolean, fit: FitViewOptions, padding: FitPadding, minZoom: number): FitWhole {
  const { fitView, setViewport } = useReactFlow();
  const store = useStoreApi();
  return useCallback(
    (duration?: number) => {
      if (!windowed) {
        void fitView({ ...fit, duration });
        return;
      }
      const { width, height } = store.getState();
      void setViewport(fitViewport(flow.nodes, width, height, minZoom, padding), { duration });
    },
    [flow, windowed, fit, padding, minZoom, fitView, setViewport, store],
  );
}

/** The controls' fit button, for a windowed graph (it stands where React Flow's own would). */
export function FitWholeButton({ onFit }: { onFit: FitWhole }) {
  return (
    <ControlButton className="react-flow__controls-fitview" title="Fit View" aria-label="Fit View" onClick={() => onFit()}>
      <svg viewBox="0 0 16 16" aria-hidden="true">
        <path d="M1 5V1h4M11 1h4v4M15 11v4h-4M5 15H1v-4" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
    </ControlButton>
  );
}
