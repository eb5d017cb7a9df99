import { describe, expect, it } from 'vitest';
import { canonicalKey, DIALECT_ATTRIBUTES, lookupAttribute } from './attributeCatalog';

describe('attribute catalog', () => {
  it('finds attributes by name or alias in the scopes they apply to', () => {
    expect(lookupAttribute('node', 'llm_model')?.name).toBe('model');
    expect(lookupAttribute('graph', 'default_max_retry')?.name).toBe('default_max_retries');
    expect(lookupAttribute('edge', 'fidelity')?.valueType).toMatchObject({ type: 'enum' });
    expect(lookupAttribute('graph', 'timeout')).toBeNull();
    expect(lookupAttribute('subgraph', 'label')?.name).toBe('label');
  });

  it('covers manager settings with the wildcard, but not the bare prefix', () => {
    expect(lookupAttribute('node', 'manager.stop_condition')?.valueType).toEqual({ type: 'condition' });
    expect(lookupAttribute('node', 'manager.custom')?.name).toBe('manager.*');
    expect(lookupAttribute('node', 'manager.')).toBeNull();
  });

  it('gives canonical names, and unknown or wildcard keys as written', () => {
    expect(canonicalKey('node', 'tool_command')).toBe('script');
    expect(canonicalKey('node', 'stack.child_dotfile')).toBe('stack.child_workflow');
    expect(canonicalKey('node', 'manager.custom')).toBe('manager.custom');
    expect(canonicalKey('node', 'color')).toBe('color');
  });

  it('holds what the Rust catalog holds, manager children on graphs and nodes included', () => {
    expect(lookupAttribute('graph', 'stack.child_dotfile')?.name).toBe('stack.child_workflow');
    expect(lookupAttribute('node', 'stack.child_workdir')?.valueType).toEqual({ type: 'string' });
    expect(lookupAttribute('edge', 'weight')?.valueType).toEqual({ type: 'float', min: null });
    expect(lookupAttribute('node', 'goal_gate')?.valueType).toEqual({ type: 'flag' });
  });

  it('keeps names unique and scopes to the four letters', () => {
    const names = DIALECT_ATTRIBUTES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(DIALECT_ATTRIBUTES.every((s) => /^[GSNE]+$/.test(s.scopes))).toBe(true);
  });
});
