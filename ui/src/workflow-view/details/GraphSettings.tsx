import type { Workflow } from '../../generated/Workflow';
import { AttributesTable } from './AttributesTable';
import './details.css';

/** The graph's own attributes (goal, default fidelity, retry target, model stylesheet, ...),
 * shown when nothing is selected; with `onChange` they can be edited, removed and added. */
export function GraphSettings({
  workflow,
  onChange,
}: {
  workflow: Workflow;
  onChange?: (key: string, value: string | null) => void;
}) {
  return (
    <section className="details is-graph" aria-label="Workflow settings" data-testid="graph-settings">
      <header className="details__header">
        <div className="details__heading">
          <h2>{workflow.label ?? workflow.name}</h2>
          <span className="details__kind">Workflow settings</span>
        </div>
      </header>
      <h3 className="details__section">Graph attributes</h3>
      <AttributesTable
        attrs={workflow.attrs}
        editing={onChange === undefined ? undefined : { scope: 'graph', kind: null, onChange }}
      />
    </section>
  );
}
