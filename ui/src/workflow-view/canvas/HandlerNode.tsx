import { memo } from 'react';
import { Handle, type NodeProps } from '@xyflow/react';
import type { HandlerFlowNode } from '../flow/flowTypes';
import { KindIcon } from '../icons/KindIcon';
import { DIAMOND_ICON, contentInsets } from '../look/nodeSize';
import { badgeAnchor, outlinePath } from '../look/shapeGeometry';
import { DiagnosticBadge } from './DiagnosticBadge';
import { handlerNodeClasses } from './handlerNodeClasses';
import { handlePlaces } from './knownGeometry';
import { useNodeRunMark } from './runMarks';

/** A workflow node: its kind's outline, icon, label lines and subtitle. Read-only. */
function HandlerNodeView({ data, selected }: NodeProps<HandlerFlowNode>) {
  const { look, box, node, subtitle, diagnostics } = data;
  const { width: w, height: h } = box;
  const handles = handlePlaces(data);
  const badge = badgeAnchor(look.shape, w, h);
  const insets = contentInsets(look.shape, h);
  const diamond = look.shape === 'diamond';
  const run = useNodeRunMark(node.id);
  const classes = handlerNodeClasses(data, selected, run);

  return (
    <div
      className={classes.join(' ')}
      style={{ width: w, height: h }}
      data-node-id={node.id}
      data-kind={node.kind}
      data-run-status={run?.status}
    >
      <svg className="handler-node__outline" width={w} height={h} viewBox={`0 0 ${w} ${h}`} aria-hidden="true">
        <path className="handler-node__shape" d={outlinePath(look.shape, w, h, 1.5)} />
        {look.decoration === 'double' ? (
          <path className="handler-node__ring" d={outlinePath(look.shape, w, h, 5)} />
        ) : null}
        {look.decoration === 'bar' ? (
          <path className="handler-node__bar" d={`M18,5 H${w - 18}`} />
        ) : null}
        {look.decoration === 'sides' ? (
          <path className="handler-node__ring" d={`M7,9 V${h - 9} M${w - 7},9 V${h - 9}`} />
        ) : null}
      </svg>
      <div
        className={diamond ? 'handler-node__content is-stacked' : 'handler-node__content'}
        style={diamond ? undefined : { paddingLeft: insets.x, paddingRight: insets.x, paddingTop: insets.top }}
      >
        <span className="handler-node__icon">
          <KindIcon name={look.icon} size={diamond ? DIAMOND_ICON - 4 : 16} />
        </span>
        <span className="handler-node__text">
          {box.lines.map((line, i) => (
            <span key={i} className="handler-node__label">
              {line}
            </span>
          ))}
          {diamond || subtitle === '' ? null : <span className="handler-node__subtitle">{subtitle}</span>}
        </span>
      </div>
      <DiagnosticBadge diagnostics={diagnostics} x={badge.x} y={badge.y} />
      {run !== undefined && (run.visits > 1 || run.retries > 0) ? (
        <span
          className="handler-node__run-counts"
          title={`${run.visits} visit(s), ${run.retries} retr${run.retries === 1 ? 'y' : 'ies'}`}
        >
          {run.visits > 1 ? `×${run.visits}` : ''}
          {run.retries > 0 ? ` ↻${run.retries}` : ''}
        </span>
      ) : null}
      <Handle
        id="in"
        type="target"
        position={handles.in.position}
        className="handler-node__handle"
        style={{ left: handles.in.at.x, top: handles.in.at.y, right: 'auto', bottom: 'auto' }}
      />
      <Handle
        id="out"
        type="source"
        position={handles.out.position}
        className="handler-node__handle"
        style={{ left: handles.out.at.x, top: handles.out.at.y, right: 'auto', bottom: 'auto' }}
      />
    </div>
  );
}

/** Memoised: while one node is dragged, the others are not drawn again. */
export const HandlerNode = memo(HandlerNodeView);
