import { describe, expect, it } from 'vitest';
import { minimalChange, syncAction } from './sourceSync';

function apply(text: string, change: { from: number; to: number; insert: string } | null): string {
  return change === null ? text : text.slice(0, change.from) + change.insert + text.slice(change.to);
}

describe('minimalChange', () => {
  it('replaces only the part that differs', () => {
    const before = 'digraph A {\n  a [label="x"];\n}\n';
    const after = 'digraph A {\n  a [label="yy"];\n}\n';
    const change = minimalChange(before, after);
    expect(change).toEqual({ from: before.indexOf('x"'), to: before.indexOf('x"') + 1, insert: 'yy' });
    expect(apply(before, change)).toBe(after);
  });

  it('handles insertions, deletions, repeats and equal texts', () => {
    for (const [a, b] of [
      ['abc', 'abXc'],
      ['abXc', 'abc'],
      ['aaa', 'aaaa'],
      ['', 'new'],
      ['old', ''],
    ] as const) {
      expect(apply(a, minimalChange(a, b))).toBe(b);
    }
    expect(minimalChange('same', 'same')).toBeNull();
  });

  it('never cuts a surrogate pair in two', () => {
    const before = 'x😀y';
    const after = 'x😃y';
    const change = minimalChange(before, after);
    expect(change).toEqual({ from: 1, to: 3, insert: '😃' });
  });
});

describe('syncAction', () => {
  it('keeps what is shown when the document is the person’s own earlier typing', () => {
    expect(syncAction('abcd', 'abc', ['ab', 'abc', 'abcd'])).toEqual({ kind: 'keep' });
    expect(syncAction('abcd', 'abcd', [])).toEqual({ kind: 'keep' });
  });

  it('replaces the differing part for a document from elsewhere', () => {
    expect(syncAction('a x b', 'a y b', ['a x b'])).toEqual({
      kind: 'replace',
      change: { from: 2, to: 3, insert: 'y' },
    });
  });
});
