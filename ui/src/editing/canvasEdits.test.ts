import { describe, expect, it } from 'vitest';
import type { Workflow } from '../generated/Workflow';
import { edge, node, pipeline, workflow } from '../test-support/workflowBuilder';
import { addNodeEdits, connectEdits, deleteEdits } from './canvasEdits';
import { accepted, attr, defaultAttr, refusal, reviewGate } from './testWorkflow';

describe('addNodeEdits', () => {
  it('adds a node named after its kind, with the kind shape and title', () => {
    const added = accepted(addNodeEdits('agent', reviewGate()));
    expect(added.id).toBe('agent');
    expect(added.edits).toEqual([
      {
        op: 'add_node',
        id: 'agent',
        attrs: [
          ['label', 'Agent'],
          ['shape', 'box'],
        ],
      },
    ]);
  });

  it('numbers the id and the label when the kind name is taken', () => {
    const wf = workflow({
      nodes: [node('command', { kind: 'command' }), node('command_2', { kind: 'command' })],
    });
    const added = accepted(addNodeEdits('command', wf));
    expect(added.id).toBe('command_3');
    expect(added.edits).toEqual([
      {
        op: 'add_node',
        id: 'command_3',
        attrs: [
          ['label', 'Command 3'],
          ['shape', 'parallelogram'],
        ],
      },
    ]);
  });

  it('uses the shape that selects each kind', () => {
    const shapes = (
      ['human', 'conditional', 'parallel', 'fan_in', 'wait', 'manager_loop', 'prompt'] as const
    ).map((kind) => {
      const [edit] = accepted(addNodeEdits(kind, workflow())).edits;
      return edit?.op === 'add_node' ? edit.attrs.find(([k]) => k === 'shape')?.[1] : undefined;
    });
    expect(shapes).toEqual(['hexagon', 'diamond', 'component', 'tripleoctagon', 'insulator', 'house', 'tab']);
  });

  it('takes a label from the options', () => {
    const { edits } = accepted(addNodeEdits('wait', workflow(), { label: 'Cool down' }));
    expect(edits[0]).toMatchObject({
      attrs: [
        ['label', 'Cool down'],
        ['shape', 'insulator'],
      ],
    });
  });

  it('adds the first start and exit of an empty workflow under their usual ids', () => {
    expect(accepted(addNodeEdits('start', workflow())).id).toBe('start');
    expect(accepted(addNodeEdits('exit', workflow())).id).toBe('exit');
  });

  it('refuses a second start', () => {
    const refused = refusal(addNodeEdits('start', reviewGate()));
    expect(refused.code).toBe('start_exists');
    expect(refused.message).toContain('`start`');
  });

  it('refuses a second exit unless asked to allow it', () => {
    expect(refusal(addNodeEdits('exit', reviewGate())).code).toBe('exit_exists');
    const added = accepted(addNodeEdits('exit', reviewGate(), { allowAnotherExit: true }));
    expect(added.id).toBe('exit_2');
    expect(added.edits[0]).toMatchObject({
      attrs: [
        ['label', 'Exit 2'],
        ['shape', 'Msquare'],
      ],
    });
  });

  it('counts a start given by id or type, not only by shape', () => {
    const wf = workflow({ nodes: [node('begin', { kind: 'start', shape: 'box' })] });
    expect(refusal(addNodeEdits('start', wf)).code).toBe('start_exists');
  });

  it('avoids ids that differ from a taken one only in case', () => {
    const wf = workflow({ nodes: [node('Agent')] });
    expect(accepted(addNodeEdits('agent', wf)).id).toBe('agent_2');
  });
});

describe('connectEdits', () => {
  it('adds an edge between two nodes', () => {
    expect(accepted(connectEdits('draft', 'publish', reviewGate()))).toEqual([
      { op: 'add_edge', from: 'draft', to: 'publish', attrs: [] },
    ]);
  });

  it('refuses unknown endpoints', () => {
    expect(refusal(connectEdits('nope', 'exit', reviewGate())).code).toBe('node_not_found');
    expect(refusal(connectEdits('draft', 'nope', reviewGate())).code).toBe('node_not_found');
  });

  it('refuses an edge into the start', () => {
    const refused = refusal(connectEdits('draft', 'start', reviewGate()));
    expect(refused.code).toBe('into_start');
  });

  it('refuses an edge out of an exit, even to itself', () => {
    expect(refusal(connectEdits('exit', 'draft', reviewGate())).code).toBe('out_of_exit');
    expect(refusal(connectEdits('exit', 'exit', reviewGate())).code).toBe('out_of_exit');
  });

  it('refuses a second bare edge between the same nodes', () => {
    const refused = refusal(connectEdits('publish', 'exit', reviewGate()));
    expect(refused.code).toBe('duplicate_edge');
    expect(refused.message).toContain('publish -> exit');
  });

  it('allows a parallel edge when the existing ones carry their own attributes', () => {
    // review -> publish has a label: a second, differently labelled choice is fine.
    expect(accepted(connectEdits('review', 'publish', reviewGate()))).toHaveLength(1);
  });

  it('treats attributes from edge defaults as not making an edge different', () => {
    const wf = workflow({
      nodes: [node('a'), node('b')],
      edges: [edge('a', 'b', { attrs: [defaultAttr('fidelity', 'full')] })],
    });
    expect(refusal(connectEdits('a', 'b', wf)).code).toBe('duplicate_edge');
  });

  it('allows a loop on an ordinary node (a retry loop)', () => {
    expect(accepted(connectEdits('draft', 'draft', reviewGate()))).toEqual([
      { op: 'add_edge', from: 'draft', to: 'draft', attrs: [] },
    ]);
  });
});

describe('deleteEdits', () => {
  /** a -> b twice, a -> c, b -> c. */
  function parallel(): Workflow {
    return workflow({
      nodes: [node('a'), node('b'), node('c')],
      edges: [
        edge('a', 'b', { attrs: [attr('label', 'one')] }),
        edge('a', 'b', { occurrence: 1, attrs: [attr('label', 'two')] }),
        edge('a', 'c'),
        edge('b', 'c'),
      ],
    });
  }

  it('removes edges first, then nodes', () => {
    const edits = accepted(
      deleteEdits(
        { nodes: ['publish'], edges: [{ from: 'draft', to: 'review', occurrence: 0 }] },
        reviewGate(),
      ),
    );
    expect(edits).toEqual([
      { op: 'remove_edge', edge: { from: 'draft', to: 'review', occurrence: 0 } },
      { op: 'remove_node', id: 'publish' },
    ]);
  });

  it('leaves the edges of a deleted node to remove_node', () => {
    const edits = accepted(
      deleteEdits(
        {
          nodes: ['publish'],
          edges: [
            { from: 'review', to: 'publish', occurrence: 0 },
            { from: 'publish', to: 'exit', occurrence: 0 },
          ],
        },
        reviewGate(),
      ),
    );
    expect(edits).toEqual([{ op: 'remove_node', id: 'publish' }]);
  });

  it('removes parallel edges from the last occurrence down', () => {
    const edits = accepted(
      deleteEdits(
        {
          nodes: [],
          edges: [
            { from: 'a', to: 'b', occurrence: 0 },
            { from: 'a', to: 'c', occurrence: 0 },
            { from: 'a', to: 'b', occurrence: 1 },
          ],
        },
        parallel(),
      ),
    );
    const ab = edits.flatMap((e) => (e.op === 'remove_edge' && e.edge.to === 'b' ? [e.edge.occurrence] : []));
    expect(ab).toEqual([1, 0]);
    expect(edits).toHaveLength(3);
  });

  it('ignores repeats in the selection', () => {
    const key = { from: 'a', to: 'c', occurrence: 0 };
    const edits = accepted(deleteEdits({ nodes: ['b', 'b'], edges: [key, { ...key }] }, parallel()));
    expect(edits).toEqual([
      { op: 'remove_edge', edge: key },
      { op: 'remove_node', id: 'b' },
    ]);
  });

  it('gives no edits for an empty selection', () => {
    expect(accepted(deleteEdits({ nodes: [], edges: [] }, pipeline()))).toEqual([]);
  });

  it('refuses nodes and edges the workflow does not have', () => {
    expect(refusal(deleteEdits({ nodes: ['ghost'], edges: [] }, pipeline())).code).toBe('node_not_found');
    const stale = { from: 'start', to: 'plan', occurrence: 1 };
    const refused = refusal(deleteEdits({ nodes: [], edges: [stale] }, pipeline()));
    expect(refused.code).toBe('edge_not_found');
    expect(refused.message).toContain('start -> plan');
  });
});
