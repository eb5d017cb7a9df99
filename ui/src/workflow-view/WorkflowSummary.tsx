import type { Workflow } from '../generated/Workflow';

/** A small card over the canvas: the workflow's name, goal and size. */
export function WorkflowSummary({ workflow }: { workflow: Workflow }) {
  const title = workflow.label ?? (workflow.name === '' ? 'Untitled workflow' : workflow.name);
  return (
    <section className="workflow-summary" aria-label="Workflow">
      <h2 className="workflow-summary__title">{title}</h2>
      {workflow.goal !== null && workflow.goal.trim() !== '' ? (
        <p className="workflow-summary__goal">{workflow.goal}</p>
      ) : null}
      <p className="workflow-summary__stats">
        {workflow.nodes.length} {workflow.nodes.length === 1 ? 'node' : 'nodes'} ·{' '}
        {workflow.edges.length} {workflow.edges.length === 1 ? 'edge' : 'edges'}
        {workflow.subgraphs.length > 0 ? ` · ${workflow.subgraphs.length} subgraphs` : ''} · rankdir{' '}
        {workflow.rankdir}
      </p>
    </section>
  );
}
