import { describe, expect, it } from 'vitest';
import { fieldFor, validateFieldValue, type FieldValueCheck } from './fieldTypes';

function value(check: FieldValueCheck): string {
  if (!check.ok) throw new Error(check.message);
  return check.value;
}

function problem(check: FieldValueCheck): string {
  if (check.ok) throw new Error(`accepted as ${check.value}`);
  return check.message;
}

describe('fieldFor', () => {
  it('picks the input from the catalog type', () => {
    expect(fieldFor('node', 'timeout').input).toEqual({ input: 'duration' });
    expect(fieldFor('node', 'max_retries').input).toEqual({ input: 'integer', min: 0 });
    expect(fieldFor('node', 'max_parallel').input).toEqual({ input: 'integer', min: 1 });
    expect(fieldFor('edge', 'weight').input).toEqual({ input: 'number', min: null });
    expect(fieldFor('node', 'goal_gate').input).toEqual({ input: 'boolean' });
    expect(fieldFor('node', 'goal_gate').input).toEqual({ input: 'boolean' });
    expect(fieldFor('edge', 'condition').input).toEqual({ input: 'condition' });
    expect(fieldFor('node', 'manager.stop_condition').input).toEqual({ input: 'condition' });
    expect(fieldFor('graph', 'model_stylesheet').input).toEqual({ input: 'stylesheet' });
    expect(fieldFor('node', 'retry_policy').input).toEqual({
      input: 'enum',
      options: ['none', 'standard', 'aggressive', 'linear', 'patient'],
    });
  });

  it('shows a prompt as markdown for model nodes and as text for a human question', () => {
    expect(fieldFor('node', 'prompt', 'agent').input).toEqual({ input: 'markdown' });
    expect(fieldFor('node', 'prompt', 'prompt').input).toEqual({ input: 'markdown' });
    expect(fieldFor('node', 'prompt').input).toEqual({ input: 'markdown' });
    expect(fieldFor('node', 'prompt', 'human').input).toEqual({ input: 'text' });
  });

  it('keeps the key as asked and names the canonical one', () => {
    const field = fieldFor('node', 'llm_model', 'agent');
    expect(field).toMatchObject({ key: 'llm_model', canonical: 'model', input: { input: 'text' } });
    expect(field.summary).toBe('LLM model id.');
  });

  it('offers the known type names for `type`', () => {
    const { input } = fieldFor('node', 'type');
    expect(input.input).toBe('enum');
    if (input.input === 'enum')
      expect(input.options).toEqual(expect.arrayContaining(['agent', 'codergen', 'wait.human']));
  });

  it('shows unknown keys, and keys outside their scope, as plain text', () => {
    expect(fieldFor('node', 'color')).toMatchObject({ summary: null, input: { input: 'text' } });
    expect(fieldFor('edge', 'timeout').input).toEqual({ input: 'text' });
  });
});

describe('validateFieldValue', () => {
  it('accepts durations as written and refuses others', () => {
    const timeout = fieldFor('node', 'timeout');
    expect(['90s', '15m', '2h', '250ms'].map((t) => value(validateFieldValue(timeout, t)))).toEqual([
      '90s',
      '15m',
      '2h',
      '250ms',
    ]);
    expect(value(validateFieldValue(timeout, ' 1h30m '))).toBe('1h30m');
    // A bare number is seconds, as Fabro reads it, and is written with its unit.
    expect(value(validateFieldValue(timeout, '90'))).toBe('90s');
    expect(value(validateFieldValue(timeout, ' 300 '))).toBe('300s');
    expect(problem(validateFieldValue(timeout, '1.5'))).toContain('not a duration');
    expect(problem(validateFieldValue(timeout, 'soon'))).toContain('not a duration');
  });

  it('checks integers against their minimum and normalises them', () => {
    const visits = fieldFor('node', 'max_visits');
    expect(value(validateFieldValue(visits, ' +007 '))).toBe('7');
    expect(problem(validateFieldValue(visits, '0'))).toBe('`0` is below the minimum of 1');
    expect(problem(validateFieldValue(visits, '2.5'))).toBe('`2.5` is not a whole number');
    expect(problem(validateFieldValue(visits, ''))).toBe('`` is not a whole number');
    expect(problem(validateFieldValue(visits, '9223372036854775808'))).toContain('not a whole number');
  });

  it('takes a weight as a number, whole or fractional, as Graphviz does', () => {
    const weight = fieldFor('edge', 'weight');
    expect(value(validateFieldValue(weight, '-20'))).toBe('-20');
    expect(value(validateFieldValue(weight, ' 2.0 '))).toBe('2.0');
    expect(value(validateFieldValue(weight, '.5'))).toBe('.5');
    expect(value(validateFieldValue(weight, '1e3'))).toBe('1e3');
    expect(problem(validateFieldValue(weight, 'heavy'))).toBe('`heavy` is not a number');
    expect(problem(validateFieldValue(weight, 'inf'))).toBe('`inf` is not a number');
    expect(problem(validateFieldValue(weight, ''))).toBe('`` is not a number');
  });

  it('matches enum values without case and writes the listed spelling', () => {
    expect(value(validateFieldValue(fieldFor('graph', 'rankdir'), 'lr'))).toBe('LR');
    expect(value(validateFieldValue(fieldFor('node', 'fidelity'), ' Summary:High '))).toBe('summary:high');
    expect(problem(validateFieldValue(fieldFor('node', 'language'), 'ruby'))).toBe(
      '`ruby` is not one of `shell` or `python`',
    );
  });

  it('reads booleans in any case', () => {
    const gate = fieldFor('node', 'goal_gate');
    expect(value(validateFieldValue(gate, 'TRUE'))).toBe('true');
    expect(value(validateFieldValue(gate, 'False'))).toBe('false');
    expect(problem(validateFieldValue(gate, 'yes'))).toContain('not a boolean');
  });

  it('takes text as written, and prompts as text or a file reference', () => {
    expect(value(validateFieldValue(fieldFor('node', 'label'), '  Plan  '))).toBe('  Plan  ');
    const prompt = fieldFor('node', 'prompt', 'agent');
    expect(value(validateFieldValue(prompt, 'Write the plan.\nThen stop.'))).toBe(
      'Write the plan.\nThen stop.',
    );
    expect(value(validateFieldValue(prompt, '@prompts/plan.md'))).toBe('@prompts/plan.md');
    expect(problem(validateFieldValue(prompt, ' @ '))).toBe('`@` must be followed by a file path');
  });

  it('takes `routing` or a schema file for output_schema', () => {
    const schema = fieldFor('node', 'output_schema');
    expect(value(validateFieldValue(schema, 'Routing'))).toBe('routing');
    expect(value(validateFieldValue(schema, '@schemas/plan.schema.json'))).toBe('@schemas/plan.schema.json');
    expect(problem(validateFieldValue(schema, 'json'))).toContain('not one of `routing`');
  });
});
