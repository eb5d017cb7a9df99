import { useEffect, useState } from 'react';
import type { Diagnostic } from '../../generated/Diagnostic';
import type { Workflow } from '../../generated/Workflow';
import type { WorkflowFlow } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { createCanvasMeasure } from '../look/canvasMeasure';
import type { MeasureText } from '../look/textMetrics';
import { layoutFlow } from './layoutEngine';
import { workerElk } from './workerElk';

/** Where laying out a workflow has got to. */
export type FlowLayoutState =
  | { status: 'pending' }
  | { status: 'ready'; flow: WorkflowFlow }
  | { status: 'failed'; message: string };

let sharedMeasure: MeasureText | null = null;

/** Maps and lays out `workflow` (in ELK's worker) whenever it or its diagnostics change; a
 * re-layout keeps the last ready flow until the new one replaces it. */
export function useFlowLayout(workflow: Workflow, diagnostics: readonly Diagnostic[]): FlowLayoutState {
  const [state, setState] = useState<FlowLayoutState>({ status: 'pending' });
  useEffect(() => {
    let current = true;
    // After an edit the previous drawing stays up until the new layout is ready, so the
    // canvas does not blank out on every change.
    setState((previous) => (previous.status === 'ready' ? previous : { status: 'pending' }));
    sharedMeasure ??= createCanvasMeasure();
    layoutFlow(workflowToFlow(workflow, diagnostics, sharedMeasure), workerElk()).then(
      (flow) => {
        if (current) setState({ status: 'ready', flow });
      },
      (reason: unknown) => {
        if (current) {
          const message = reason instanceof Error ? reason.message : String(reason);
          setState({ status: 'failed', message });
        }
      },
    );
    return () => {
      current = false;
    };
  }, [workflow, diagnostics]);
  return state;
}
