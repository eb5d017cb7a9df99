import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useEffect, useState } from 'react';
import { DiagnosticsPanel } from '../diagnostics/DiagnosticsPanel';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import type { Workflow } from '../generated/Workflow';
import type { CanvasSelection } from '../workflow-view/flow/elementIds';
import { WorkflowView } from '../workflow-view/WorkflowView';
import { useFocusElement } from '../workflow-view/canvas/useFocusElement';
import { useFlowLayout } from '../workflow-view/layout/useFlowLayout';
import { ElementDetails } from '../workflow-view/details/ElementDetails';
import { UnreadableWorkflow } from './UnreadableWorkflow';

function LaidOutWorkflow({ opened, workflow }: { opened: OpenedWorkflow; workflow: Workflow }) {
  const layout = useFlowLayout(workflow, opened.diagnostics);
  const [selection, setSelection] = useState<CanvasSelection>(null);
  const focus = useFocusElement();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setSelection(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const flow = layout.status === 'ready' ? layout.flow : null;
  const isOnCanvas = useCallback(
    (s: NonNullable<CanvasSelection>) =>
      flow !== null &&
      (s.type === 'node'
        ? flow.nodes.some((n) => n.type === 'handler' && n.id === s.id)
        : flow.edges.some((e) => e.id === s.id)),
    [flow],
  );
  const reveal = useCallback(
    (s: NonNullable<CanvasSelection>) => {
      setSelection(s);
      focus(s);
    },
    [focus],
  );

  return (
    <div className="workflow-screen">
      <WorkflowView workflow={workflow} layout={layout} selection={selection} onSelect={setSelection} />
      <div className="side-panel">
        {flow !== null && selection !== null ? (
          <ElementDetails flow={flow} selection={selection} onClose={() => setSelection(null)} />
        ) : null}
        <DiagnosticsPanel
          diagnostics={opened.diagnostics}
          selection={selection}
          isOnCanvas={isOnCanvas}
          onReveal={reveal}
        />
      </div>
    </div>
  );
}

/** An opened workflow: the canvas and its diagnostics, or the diagnostics alone when no graph could be read. */
export function WorkflowScreen({ opened }: { opened: OpenedWorkflow }) {
  if (opened.workflow === null) {
    return (
      <div className="workflow-screen">
        <UnreadableWorkflow opened={opened} />
        <div className="side-panel">
          <DiagnosticsPanel
            diagnostics={opened.diagnostics}
            selection={null}
            isOnCanvas={() => false}
            onReveal={() => {}}
          />
        </div>
      </div>
    );
  }
  return (
    <ReactFlowProvider key={`${opened.path}\n${opened.source}`}>
      <LaidOutWorkflow opened={opened} workflow={opened.workflow} />
    </ReactFlowProvider>
  );
}
