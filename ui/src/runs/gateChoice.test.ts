import { describe, expect, it } from 'vitest';
import { choiceText } from './gateChoice';

describe('choiceText', () => {
  it('drops the accelerator prefixes the engine reads', () => {
    expect(choiceText('[A] Approve')).toBe('Approve');
    expect(choiceText('[S] Skip release')).toBe('Skip release');
    expect(choiceText('[12] Twelfth')).toBe('Twelfth');
    expect(choiceText('x) Abort')).toBe('Abort');
    expect(choiceText('R - Revise')).toBe('Revise');
    expect(choiceText('  [É] Étape')).toBe('Étape');
  });

  it('keeps labels without a prefix as they are', () => {
    expect(choiceText('Revise')).toBe('Revise');
    expect(choiceText('[ABCD] too long')).toBe('[ABCD] too long');
    expect(choiceText('[A]Approve')).toBe('[A]Approve');
    expect(choiceText('A-B testing')).toBe('A-B testing');
    expect(choiceText('x)y')).toBe('x)y');
    expect(choiceText('rework')).toBe('rework');
  });

  it('keeps a label that is only a key', () => {
    expect(choiceText('[A]')).toBe('[A]');
    expect(choiceText('x)')).toBe('x)');
  });
});
