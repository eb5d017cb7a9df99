import { describe, expect, it } from 'vitest';
import { node, workflow } from '../test-support/workflowBuilder';
import { renameEdits } from './canvasEdits';
import { accepted, attr, defaultAttr, refusal, reviewGate } from './testWorkflow';

describe('renameEdits', () => {
  it('renames a node with one rename_node edit', () => {
    expect(accepted(renameEdits('draft', 'write_notes', reviewGate()))).toEqual([
      { op: 'rename_node', from: 'draft', to: 'write_notes' },
    ]);
  });

  it('gives no edits when the id stays the same', () => {
    expect(accepted(renameEdits('draft', 'draft', reviewGate()))).toEqual([]);
  });

  it('refuses an unknown node', () => {
    expect(refusal(renameEdits('ghost', 'spirit', reviewGate())).code).toBe('node_not_found');
  });

  it('refuses an empty id', () => {
    expect(refusal(renameEdits('draft', '', reviewGate())).code).toBe('empty_id');
  });

  it.each(['write notes', '2nd_draft', 'draft-2', 'résumé', 'a.b'])(
    'refuses `%s`, which the edit API cannot write',
    (id) => {
      expect(refusal(renameEdits('draft', id, reviewGate())).code).toBe('invalid_id');
    },
  );

  it.each(['graph', 'Node', 'EDGE', 'subgraph', 'digraph', 'Strict'])('refuses the keyword `%s`', (id) => {
    const refused = refusal(renameEdits('draft', id, reviewGate()));
    expect(refused.code).toBe('reserved_id');
    expect(refused.message).toContain(id);
  });

  it('refuses an id another node has', () => {
    const refused = refusal(renameEdits('draft', 'publish', reviewGate()));
    expect(refused.code).toBe('id_taken');
    expect(refused.message).toContain('`publish`');
  });

  it('refuses an id that differs from another node only in case', () => {
    const refused = refusal(renameEdits('draft', 'Publish', reviewGate()));
    expect(refused.code).toBe('id_taken');
    expect(refused.message).toContain('case');
  });

  it('allows changing only the case of the node itself', () => {
    expect(accepted(renameEdits('draft', 'Draft', reviewGate()))).toEqual([
      { op: 'rename_node', from: 'draft', to: 'Draft' },
    ]);
  });

  it('refuses a rename that would turn a boxed node into an exit', () => {
    const wf = workflow({ nodes: [node('finish', { kind: 'agent', shape: 'box' })] });
    const refused = refusal(renameEdits('finish', 'end', wf));
    expect(refused.code).toBe('kind_change');
    expect(refused.message).toContain('exit');
  });

  it('refuses a rename that would take its kind from a start known only by id', () => {
    const wf = workflow({ nodes: [node('start', { kind: 'start', shape: 'box' })] });
    expect(refusal(renameEdits('start', 'begin', wf)).code).toBe('kind_change');
  });

  it('allows renaming to `end` when the shape or type already decides the kind', () => {
    const byShape = workflow({ nodes: [node('done', { kind: 'exit', shape: 'Msquare' })] });
    expect(accepted(renameEdits('done', 'end', byShape))).toHaveLength(1);
    const byType = workflow({ nodes: [node('plan', { attrs: [attr('type', 'codergen')] })] });
    expect(accepted(renameEdits('plan', 'end', byType))).toHaveLength(1);
  });

  it('points retry targets naming the node at the new id, in the spelling each uses', () => {
    const wf = workflow({
      attrs: [attr('retry_target', 'draft'), attr('fallback_retry_target', 'review')],
      nodes: [
        node('draft', { attrs: [attr('retry_target', ' draft ')] }),
        node('review', { kind: 'human', attrs: [attr('fallback_retry_target', 'draft')] }),
        node('publish', { attrs: [attr('retry_target', 'review')] }),
      ],
    });
    expect(accepted(renameEdits('draft', 'write', wf))).toEqual([
      { op: 'rename_node', from: 'draft', to: 'write' },
      { op: 'set_graph_attr', key: 'retry_target', value: 'write' },
      { op: 'set_node_attr', node: 'write', key: 'retry_target', value: 'write' },
      { op: 'set_node_attr', node: 'review', key: 'fallback_retry_target', value: 'write' },
    ]);
  });

  it('leaves retry targets that come from node defaults alone', () => {
    const wf = workflow({
      nodes: [node('draft'), node('publish', { attrs: [defaultAttr('retry_target', 'draft')] })],
    });
    expect(accepted(renameEdits('draft', 'write', wf))).toEqual([
      { op: 'rename_node', from: 'draft', to: 'write' },
    ]);
  });
});
