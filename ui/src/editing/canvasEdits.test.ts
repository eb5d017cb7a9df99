import { describe, expect, it } from 'vitest';
import { node, workflow } from '../test-support/workflowBuilder';
import { addedNodeId, addNodeEdit, connectEdit, deleteEdit, renameEdit, setAttributeEdit } from './canvasEdits';

describe('canvas edits', () => {
  it('name the operation and leave its meaning to the API', () => {
    expect(addNodeEdit('fan_in')).toEqual({ op: 'add_node', kind: 'fan_in', attrs: [] });
    expect(connectEdit('plan', 'build')).toEqual({ op: 'add_edge', from: 'plan', to: 'build', attrs: [] });
    expect(renameEdit('plan', 'design')).toEqual({ op: 'rename_node', from: 'plan', to: 'design' });
  });

  it('deletes a selection in one edit', () => {
    const edge = { from: 'a', to: 'b', occurrence: 1 };
    expect(deleteEdit({ nodes: ['c'], edges: [edge] })).toEqual({ op: 'delete', nodes: ['c'], edges: [edge] });
  });

  it('sets and removes attributes on each target, with the key as the person wrote it', () => {
    const edge = { from: 'a', to: 'b', occurrence: 0 };
    expect(setAttributeEdit({ type: 'graph' }, 'goal', 'Ship')).toEqual({
      op: 'set_graph_attr',
      key: 'goal',
      value: 'Ship',
    });
    expect(setAttributeEdit({ type: 'graph' }, 'goal', null)).toEqual({ op: 'remove_graph_attr', key: 'goal' });
    expect(setAttributeEdit({ type: 'node', id: 'plan' }, 'model', 'opus')).toEqual({
      op: 'set_node_attr',
      node: 'plan',
      key: 'model',
      value: 'opus',
    });
    expect(setAttributeEdit({ type: 'node', id: 'plan' }, 'model', null)).toEqual({
      op: 'remove_node_attr',
      node: 'plan',
      key: 'model',
    });
    expect(setAttributeEdit({ type: 'edge', edge }, 'label', 'go')).toEqual({
      op: 'set_edge_attr',
      edge,
      key: 'label',
      value: 'go',
    });
    expect(setAttributeEdit({ type: 'edge', edge }, 'label', null)).toEqual({ op: 'remove_edge_attr', edge, key: 'label' });
  });

  it('finds the node an add made in the answer', () => {
    const before = workflow({ nodes: [node('start'), node('agent')] });
    const after = workflow({ nodes: [node('start'), node('agent'), node('agent_2')] });
    expect(addedNodeId(before, after)).toBe('agent_2');
    expect(addedNodeId(before, before)).toBeNull();
    expect(addedNodeId(before, null)).toBeNull();
  });
});
