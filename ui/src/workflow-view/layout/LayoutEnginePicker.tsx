import { Panel } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import type { FitWhole } from '../canvas/fitWhole';
import type { WorkflowFlow } from '../flow/flowTypes';
import { chooseLayoutEngine, engineFor, isLayoutChoice, useChosenLayoutEngine } from './layoutEngineChoice';
import { LAYOUT_ENGINES, layoutOriginOf } from './layoutEngines';
import './layoutEnginePicker.css';

/** Fits the view to the graph again (with `fit`, animated) when a different engine has laid
 * it out: the drawing's size and shape change with the engine, so the old viewport may show
 * nothing of it. */
function useRefitOnEngineChange(drawnBy: string, fit: FitWhole) {
  const previous = useRef(drawnBy);
  useEffect(() => {
    if (previous.current === drawnBy) return;
    previous.current = drawnBy;
    fit(200);
  }, [drawnBy, fit]);
}

/**
 * A small select on the canvas choosing the layout engine for every canvas: Auto (the layered
 * engine), ELK, Graphviz or Layered.
 * `data-layout-engine` names the engine that laid out the flow shown (`flow`); while the
 * newly chosen one is still working it differs from the select's value.
 */
export function LayoutEnginePicker({ flow, fit }: { flow: WorkflowFlow; fit: FitWhole }) {
  const chosen = useChosenLayoutEngine();
  const wanted = engineFor(chosen);
  const origin = layoutOriginOf(flow);
  const drawnBy = origin?.engine ?? wanted;
  const fellBack = origin?.fallbackReason ?? null;
  const working = drawnBy !== wanted && fellBack === null;
  const autoTitle = `Auto (${LAYOUT_ENGINES.find((e) => e.name === wanted)?.title ?? wanted})`;
  useRefitOnEngineChange(drawnBy, fit);
  return (
    <Panel
      position="top-right"
      className="layout-engine-picker"
      data-testid="layout-engine"
      data-layout-engine={drawnBy}
    >
      <label>
        <span className="layout-engine-picker__caption">Layout</span>
        <select
          value={chosen}
          aria-label="Layout engine"
          onChange={(event) => {
            if (isLayoutChoice(event.target.value)) chooseLayoutEngine(event.target.value);
          }}
        >
          <option value="auto">{autoTitle}</option>
          {LAYOUT_ENGINES.map((engine) => (
            <option key={engine.name} value={engine.name}>
              {engine.title}
            </option>
          ))}
        </select>
      </label>
      {working ? <span className="spinner" role="status" aria-label="Laying out" /> : null}
      {fellBack !== null ? (
        <span className="layout-engine-picker__warning" role="status" title={fellBack}>
          Graphviz unavailable, laid out with ELK
        </span>
      ) : null}
    </Panel>
  );
}
