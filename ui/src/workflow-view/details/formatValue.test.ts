import { describe, expect, it } from 'vitest';
import { stringAttr } from '../../test-support/workflowBuilder';
import { formatValue, keyLabel, originNote } from './formatValue';

describe('formatValue', () => {
  it('formats each value type', () => {
    expect(formatValue({ type: 'string', value: 'Plan it' }, '"Plan it"')).toBe('Plan it');
    expect(formatValue({ type: 'integer', value: 3 }, '3')).toBe('3');
    expect(formatValue({ type: 'float', value: 0.5 }, '0.5')).toBe('0.5');
    expect(formatValue({ type: 'boolean', value: false }, 'false')).toBe('false');
    expect(formatValue({ type: 'duration', value: 30000 }, '30s')).toBe('30s');
    expect(formatValue({ type: 'enum', value: 'standard' }, 'standard')).toBe('standard');
    expect(
      formatValue({ type: 'file_ref', value: { path: 'prompts/plan.md', resolved: null } }, '@prompts/plan.md'),
    ).toBe('@prompts/plan.md');
    expect(formatValue({ type: 'invalid', value: 'bad' }, 'banana')).toBe('banana');
  });
});

describe('attribute notes', () => {
  it('notes inherited values and aliased keys', () => {
    const explicit = stringAttr('model', 'x');
    expect(originNote(explicit)).toBeNull();
    expect(originNote({ ...explicit, origin: 'stylesheet' })).toBe('stylesheet');
    expect(keyLabel(explicit)).toBe('model');
    expect(keyLabel({ ...explicit, key: 'llm_model' })).toBe('llm_model (model)');
  });
});
