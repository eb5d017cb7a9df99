import { describe, expect, it } from 'vitest';
import { splitCodeSpans } from './codeSpans';

describe('splitCodeSpans', () => {
  it('separates backticked code from plain text', () => {
    expect(splitCodeSpans('expected `digraph`, found `graph`')).toEqual([
      { text: 'expected ', code: false },
      { text: 'digraph', code: true },
      { text: ', found ', code: false },
      { text: 'graph', code: true },
    ]);
  });

  it('keeps plain messages and unmatched backticks as they are', () => {
    expect(splitCodeSpans('no code here')).toEqual([{ text: 'no code here', code: false }]);
    expect(splitCodeSpans('a ` b')).toEqual([{ text: 'a ` b', code: false }]);
    expect(splitCodeSpans('')).toEqual([]);
  });
});
