import { describe, expect, it } from 'vitest';
import { checkNodeId, freshNodeId, isDotKeyword } from './nodeIds';
import { accepted, refusal } from './testWorkflow';

describe('checkNodeId', () => {
  it('accepts plain identifiers', () => {
    for (const id of ['plan', '_x', 'Step_2', 'a1']) expect(accepted(checkNodeId(id))).toBe(id);
  });

  it('refuses empty, malformed and reserved ids', () => {
    expect(refusal(checkNodeId('')).code).toBe('empty_id');
    expect(refusal(checkNodeId('1st')).code).toBe('invalid_id');
    expect(refusal(checkNodeId('a b')).code).toBe('invalid_id');
    expect(refusal(checkNodeId('"quoted"')).code).toBe('invalid_id');
    expect(refusal(checkNodeId('Digraph')).code).toBe('reserved_id');
  });
});

describe('isDotKeyword', () => {
  it('knows the six keywords in any case', () => {
    expect(['strict', 'GRAPH', 'Digraph', 'node', 'edGe', 'subgraph'].every(isDotKeyword)).toBe(true);
    expect(isDotKeyword('nodes')).toBe(false);
  });
});

describe('freshNodeId', () => {
  it('uses the base when it is free', () => {
    expect(freshNodeId('agent', ['plan'])).toBe('agent');
  });

  it('numbers from 2, skipping taken numbers and other cases', () => {
    expect(freshNodeId('agent', ['agent', 'AGENT_2', 'agent_4'])).toBe('agent_3');
  });

  it('never returns a keyword', () => {
    expect(freshNodeId('node', [])).toBe('node_2');
  });
});
