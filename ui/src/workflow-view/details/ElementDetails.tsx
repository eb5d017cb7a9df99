import type { ReactNode } from 'react';
import { CloseIcon } from '../../icons/appIcons';
import { MessageText } from '../../diagnostics/MessageText';
import { SeverityIcon } from '../../diagnostics/SeverityIcon';
import type { CanvasSelection } from '../flow/elementIds';
import type { AttachedDiagnostics, WorkflowFlow } from '../flow/flowTypes';
import { KindIcon } from '../icons/KindIcon';
import { AttributesTable } from './AttributesTable';
import { EditableValue } from './EditableValue';
import { fieldFor } from '../../editing/fieldTypes';
import type { EdgeKey } from '../../generated/EdgeKey';
import './details.css';

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="details__field">
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function DiagnosticsSummary({ diagnostics }: { diagnostics: AttachedDiagnostics }) {
  if (diagnostics.list.length === 0) return null;
  return (
    <ul className="details__diagnostics">
      {diagnostics.list.map((d, i) => (
        <li key={i} className={`severity-${d.severity}`}>
          <SeverityIcon severity={d.severity} size={13} />
          <span>
            <MessageText text={d.message} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** What the panel needs to change the selected element; without it the panel is read-only. */
export type ElementEditing = {
  onNodeAttribute: (node: string, key: string, value: string | null) => void;
  onEdgeAttribute: (edge: EdgeKey, key: string, value: string | null) => void;
  onRename: (from: string, to: string) => void;
};

/** A small panel describing the selected node or edge; with `editing`, its fields can be changed. */
export function ElementDetails({
  flow,
  selection,
  onClose,
  editing,
}: {
  flow: WorkflowFlow;
  selection: CanvasSelection;
  onClose: () => void;
  editing?: ElementEditing;
}) {
  if (selection === null) return null;
  const close = (
    <button type="button" className="icon-button details__close" onClick={onClose} aria-label="Close details">
      <CloseIcon size={14} />
    </button>
  );

  if (selection.type === 'node') {
    const flowNode = flow.nodes.find((n) => n.id === selection.id);
    if (flowNode === undefined || flowNode.type !== 'handler') return null;
    const { node, look, diagnostics } = flowNode.data;
    return (
      <section className={`details ${look.tone}`} aria-label="Node details" data-testid="node-details">
        <header className="details__header">
          <span className="details__icon">
            <KindIcon name={look.icon} size={16} />
          </span>
          <div className="details__heading">
            <h2>{node.label}</h2>
            <span className="details__kind">{look.title}</span>
          </div>
          {close}
        </header>
        <DiagnosticsSummary diagnostics={diagnostics} />
        <dl className="details__fields">
          <Field name="id">
            {editing !== undefined ? (
              <EditableValue
                field={{ ...fieldFor('node', 'label'), key: 'id', canonical: 'id', summary: 'The node id.' }}
                value={node.id}
                onCommit={(to) => editing.onRename(node.id, to)}
              >
                <code data-testid="details-node-id">{node.id}</code>
              </EditableValue>
            ) : (
              <code data-testid="details-node-id">{node.id}</code>
            )}
          </Field>
          <Field name="kind">
            <code>{node.kind}</code>
          </Field>
          <Field name="shape">
            <code>{node.shape}</code>
          </Field>
          {node.classes.length > 0 ? <Field name="classes">{node.classes.join(', ')}</Field> : null}
          <Field name="line">
            {node.span.line}:{node.span.column}
          </Field>
        </dl>
        <h3 className="details__section">Attributes</h3>
        <AttributesTable
          attrs={node.attrs}
          editing={
            editing === undefined
              ? undefined
              : {
                  scope: 'node',
                  kind: node.kind,
                  onChange: (key, value) => editing.onNodeAttribute(node.id, key, value),
                }
          }
        />
      </section>
    );
  }

  const flowEdge = flow.edges.find((e) => e.id === selection.id);
  const data = flowEdge?.data;
  if (data === undefined) return null;
  const { edge, diagnostics } = data;
  return (
    <section className="details is-edge" aria-label="Edge details" data-testid="edge-details">
      <header className="details__header">
        <div className="details__heading">
          <h2>
            <code>{edge.from}</code> → <code>{edge.to}</code>
          </h2>
          <span className="details__kind">
            Edge{edge.occurrence > 0 ? ` · occurrence ${edge.occurrence + 1}` : ''}
          </span>
        </div>
        {close}
      </header>
      <DiagnosticsSummary diagnostics={diagnostics} />
      <dl className="details__fields">
        {edge.label !== null ? <Field name="label">{edge.label}</Field> : null}
        {edge.condition !== null ? (
          <Field name="condition">
            <code>{edge.condition}</code>
          </Field>
        ) : null}
        <Field name="weight">{edge.weight}</Field>
        <Field name="line">
          {edge.span.line}:{edge.span.column}
        </Field>
      </dl>
      <h3 className="details__section">Attributes</h3>
      <AttributesTable
        attrs={edge.attrs}
        editing={
          editing === undefined
            ? undefined
            : {
                scope: 'edge',
                kind: null,
                onChange: (key, value) =>
                  editing.onEdgeAttribute({ from: edge.from, to: edge.to, occurrence: edge.occurrence }, key, value),
              }
        }
      />
    </section>
  );
}
