import { describe, expect, it } from 'vitest';
import { edge, node, workflow } from '../test-support/workflowBuilder';
import { setAttributeEdits } from './canvasEdits';
import { accepted, attr, defaultAttr, refusal, reviewGate } from './testWorkflow';

describe('setAttributeEdits', () => {
  it('sets and removes graph attributes', () => {
    const wf = reviewGate();
    expect(accepted(setAttributeEdits({ type: 'graph' }, 'goal', 'Ship it', wf))).toEqual([
      { op: 'set_graph_attr', key: 'goal', value: 'Ship it' },
    ]);
    expect(accepted(setAttributeEdits({ type: 'graph' }, 'goal', null, wf))).toEqual([
      { op: 'remove_graph_attr', key: 'goal' },
    ]);
  });

  it('sets and removes node attributes', () => {
    const target = { type: 'node', id: 'review' } as const;
    expect(accepted(setAttributeEdits(target, 'timeout', '30m', reviewGate()))).toEqual([
      { op: 'set_node_attr', node: 'review', key: 'timeout', value: '30m' },
    ]);
    expect(accepted(setAttributeEdits(target, 'timeout', null, reviewGate()))).toEqual([
      { op: 'remove_node_attr', node: 'review', key: 'timeout' },
    ]);
  });

  it('sets and removes edge attributes on the edge the key names', () => {
    const key = { from: 'review', to: 'draft', occurrence: 0 };
    expect(
      accepted(setAttributeEdits({ type: 'edge', edge: key }, 'label', '[R] Rework', reviewGate())),
    ).toEqual([{ op: 'set_edge_attr', edge: key, key: 'label', value: '[R] Rework' }]);
    expect(accepted(setAttributeEdits({ type: 'edge', edge: key }, 'condition', null, reviewGate()))).toEqual(
      [{ op: 'remove_edge_attr', edge: key, key: 'condition' }],
    );
  });

  it('writes back the alias the node already uses', () => {
    const wf = workflow({ nodes: [node('plan', { attrs: [attr('llm_model', 'gpt-5.2', 'model')] })] });
    expect(accepted(setAttributeEdits({ type: 'node', id: 'plan' }, 'model', 'claude-opus', wf))).toEqual([
      { op: 'set_node_attr', node: 'plan', key: 'llm_model', value: 'claude-opus' },
    ]);
  });

  it('finds the spelling in use when given the alias', () => {
    const wf = workflow({ nodes: [node('run', { kind: 'command', attrs: [attr('script', 'make')] })] });
    expect(accepted(setAttributeEdits({ type: 'node', id: 'run' }, 'tool_command', 'make test', wf))).toEqual(
      [{ op: 'set_node_attr', node: 'run', key: 'script', value: 'make test' }],
    );
  });

  it('removes every spelling a node has', () => {
    const wf = workflow({
      nodes: [node('plan', { attrs: [attr('llm_model', 'a', 'model'), attr('model', 'b')] })],
    });
    expect(accepted(setAttributeEdits({ type: 'node', id: 'plan' }, 'model', null, wf))).toEqual([
      { op: 'remove_node_attr', node: 'plan', key: 'llm_model' },
      { op: 'remove_node_attr', node: 'plan', key: 'model' },
    ]);
  });

  it('ignores spellings that only come from defaults', () => {
    const wf = workflow({ nodes: [node('plan', { attrs: [defaultAttr('llm_model', 'a')] })] });
    expect(accepted(setAttributeEdits({ type: 'node', id: 'plan' }, 'model', 'b', wf))).toEqual([
      { op: 'set_node_attr', node: 'plan', key: 'model', value: 'b' },
    ]);
  });

  it('keeps unknown keys as given', () => {
    const wf = workflow({ nodes: [node('a')], edges: [edge('a', 'a')] });
    expect(accepted(setAttributeEdits({ type: 'node', id: 'a' }, 'color', 'red', wf))).toEqual([
      { op: 'set_node_attr', node: 'a', key: 'color', value: 'red' },
    ]);
  });

  it('refuses an empty key', () => {
    expect(refusal(setAttributeEdits({ type: 'graph' }, '', 'x', reviewGate())).code).toBe('empty_key');
  });

  it('refuses targets the workflow does not have', () => {
    expect(refusal(setAttributeEdits({ type: 'node', id: 'ghost' }, 'label', 'x', reviewGate())).code).toBe(
      'node_not_found',
    );
    const stale = { from: 'review', to: 'draft', occurrence: 3 };
    expect(refusal(setAttributeEdits({ type: 'edge', edge: stale }, 'label', 'x', reviewGate())).code).toBe(
      'edge_not_found',
    );
  });
});
