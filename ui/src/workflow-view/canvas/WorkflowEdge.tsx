import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type EdgeProps } from '@xyflow/react';
import { SeverityIcon } from '../../diagnostics/SeverityIcon';
import type { WorkflowFlowEdge } from '../flow/flowTypes';
import { polylineMidpoint, roundedPolylinePath } from './edgePath';
import { TAKEN_ARROW_URL } from './RunArrow';
import { useEdgeRunMark } from './runMarks';
import { useSelect } from './SelectionContext';

/**
 * An edge along its ELK route (a smooth-step path between the handles before layout),
 * with a chip showing its label and condition.
 */
function WorkflowEdgeView(props: EdgeProps<WorkflowFlowEdge>) {
  const { id, data, selected, markerEnd } = props;
  const select = useSelect();
  const route = data?.route ?? null;
  let path: string;
  let center: { x: number; y: number } | null;
  if (route !== null) {
    path = roundedPolylinePath(route, 10);
    center = data?.labelCenter ?? polylineMidpoint(route);
  } else {
    const [stepPath, labelX, labelY] = getSmoothStepPath({
      sourceX: props.sourceX,
      sourceY: props.sourceY,
      sourcePosition: props.sourcePosition,
      targetX: props.targetX,
      targetY: props.targetY,
      targetPosition: props.targetPosition,
      borderRadius: 10,
    });
    path = stepPath;
    center = { x: labelX, y: labelY };
  }
  const box = data?.labelBox ?? null;
  const worst = data?.diagnostics.worst ?? null;
  const run = useEdgeRunMark(id, data?.edge);
  const chipClasses = [
    'edge-chip',
    'nodrag',
    'nopan',
    selected ? 'is-selected' : '',
    worst === null ? '' : `has-${worst}`,
    run === undefined ? '' : 'is-taken',
  ];

  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        // A taken edge's arrow in the taken colour (a selected one keeps the selection's).
        markerEnd={run !== undefined && !selected ? TAKEN_ARROW_URL : markerEnd}
        className={run === undefined ? undefined : run.latest ? 'is-taken is-latest' : 'is-taken'}
        interactionWidth={18}
      />
      {center !== null && (box !== null || worst !== null || run !== undefined) ? (
        <EdgeLabelRenderer>
          <div
            className={chipClasses.join(' ')}
            style={{
              transform: `translate(-50%, -50%) translate(${center.x}px, ${center.y}px)`,
              minWidth: box?.width,
            }}
            data-edge-id={id}
            data-taken-reason={run?.reason}
            title={run === undefined ? undefined : `Taken ${run.count}× (${run.reason})`}
            onClick={() => select({ type: 'edge', id })}
          >
            {worst !== null ? (
              <span className={`edge-chip__severity severity-${worst}`}>
                <SeverityIcon severity={worst} size={12} />
              </span>
            ) : null}
            {box !== null ? (
              <span className="edge-chip__text">
                {box.labelLines.map((line, i) => (
                  <span key={`l${i}`} className="edge-chip__label">
                    {line}
                  </span>
                ))}
                {box.conditionLines.map((line, i) => (
                  <span key={`c${i}`} className="edge-chip__condition">
                    {line}
                  </span>
                ))}
              </span>
            ) : null}
            {run !== undefined ? (
              <span className="edge-chip__reason">
                {run.reason}
                {run.count > 1 ? ` ×${run.count}` : ''}
              </span>
            ) : null}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

/** Memoised: while one node is dragged, the others are not drawn again. */
export const WorkflowEdge = memo(WorkflowEdgeView);
