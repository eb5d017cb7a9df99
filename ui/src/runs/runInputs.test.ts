import { describe, expect, it } from 'vitest';
import { initialInputValues, inputsToSend } from './runInputs';

const inputs = [
  { name: 'repo', value: 'heddle' },
  { name: 'lang', value: null },
];

describe('run inputs', () => {
  it('starts from the run config values', () => {
    expect(initialInputValues(inputs)).toEqual({ repo: 'heddle', lang: '' });
  });

  it('sends the filled inputs and names the empty ones', () => {
    expect(inputsToSend(inputs, { repo: 'x', lang: '' })).toEqual({ values: { repo: 'x' }, missing: ['lang'] });
    expect(inputsToSend(inputs, { repo: 'x', lang: 'rust', other: 'ignored' })).toEqual({
      values: { repo: 'x', lang: 'rust' },
      missing: [],
    });
  });
});
