import { useEffect, useRef, useState } from 'react';
import type { Diagnostic } from '../../generated/Diagnostic';
import type { Workflow } from '../../generated/Workflow';
import type { WorkflowFlow } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { createCanvasMeasure } from '../look/canvasMeasure';
import { characterMeasure, measureForSize } from '../look/characterMeasure';
import { estimateTextWidth, type MeasureText } from '../look/textMetrics';
import { foldRoom } from './fold/canvasRoom';
import type { FoldRoom } from './fold/foldFlow';
import { chosenLayoutEngine, engineFor, useChosenLayoutEngine } from './layoutEngineChoice';
import { layoutWithEngine, warmUpLayoutEngine } from './layoutEngines';

/** Where laying out a workflow has got to. */
export type FlowLayoutState =
  | { status: 'pending' }
  | { status: 'ready'; flow: WorkflowFlow }
  | { status: 'failed'; message: string };

// Made as the app loads, while the page is still nearly empty: reading the theme's fonts
// then costs nothing, where later it would restyle the whole editor first.
// Without a page (unit tests), text widths are estimated.
const sharedMeasure: MeasureText = typeof document === 'undefined' ? estimateTextWidth : createCanvasMeasure();
/** The same, a character at a time, for very large workflows (see `characterMeasure`). */
const sharedCharacterMeasure: MeasureText = characterMeasure(sharedMeasure);

// Start the chosen engine's worker (ELK's or Graphviz's, when picked) as soon as the app
// loads, while the first workflow is still being fetched, instead of when its layout is asked
// for. Under `auto` the layered engine needs none.
warmUpLayoutEngine(engineFor(chosenLayoutEngine()));

/** Maps and lays out `workflow` (with the chosen engine) whenever it, its diagnostics or
 * the chosen engine change; a re-layout keeps the last ready flow until the new one replaces it.
 * A long drawing is folded to the canvas's shape (`foldFlow`), measured once for the hook's
 * life so an edit does not re-fold it differently after the window was resized. */
export function useFlowLayout(workflow: Workflow, diagnostics: readonly Diagnostic[]): FlowLayoutState {
  const engine = engineFor(useChosenLayoutEngine());
  const [state, setState] = useState<FlowLayoutState>({ status: 'pending' });
  const room = useRef<FoldRoom | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    if (room.current === undefined) room.current = foldRoom();
    const shape = room.current;
    // After an edit the previous drawing stays up until the new layout is ready, so the
    // canvas does not blank out on every change.
    // A pending state is kept as it is, so the first layout does not render the screen twice.
    setState((previous) => (previous.status === 'failed' ? { status: 'pending' } : previous));
    const measure = measureForSize(sharedMeasure, sharedCharacterMeasure, workflow.nodes.length);
    layoutWithEngine(engine, workflowToFlow(workflow, diagnostics, measure), shape).then(
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
  }, [workflow, diagnostics, engine]);
  return state;
}
