import { StringStream } from '@codemirror/language';
import { describe, expect, it } from 'vitest';
import { dotToken, startState, type DotState, type DotToken } from './dotTokens';

/** Each line's tokens as [text, token] pairs, spaces left out. */
function tokens(source: string): [string, DotToken][] {
  const state: DotState = startState();
  const out: [string, DotToken][] = [];
  for (const line of source.split('\n')) {
    const stream = new StringStream(line, 4, 2);
    while (!stream.eol()) {
      const token = dotToken(stream, state);
      if (token !== null) out.push([stream.current(), token]);
      stream.start = stream.pos;
    }
  }
  return out;
}

describe('dotToken', () => {
  it('tells keywords, names, attributes, strings and operators apart', () => {
    expect(tokens('digraph G { a [label="x \\" y", weight=2]; a -> b; }')).toEqual([
      ['digraph', 'keyword'],
      ['G', 'name'],
      ['{', 'punctuation'],
      ['a', 'name'],
      ['[', 'punctuation'],
      ['label', 'attribute'],
      ['=', 'punctuation'],
      ['"x \\" y"', 'string'],
      [',', 'punctuation'],
      ['weight', 'attribute'],
      ['=', 'punctuation'],
      ['2', 'number'],
      [']', 'punctuation'],
      [';', 'punctuation'],
      ['a', 'name'],
      ['->', 'operator'],
      ['b', 'name'],
      [';', 'punctuation'],
      ['}', 'punctuation'],
    ]);
  });

  it('carries block comments and strings across lines', () => {
    expect(tokens('/* one\ntwo */ a\nb [prompt="line\nnext"]')).toEqual([
      ['/* one', 'comment'],
      ['two */', 'comment'],
      ['a', 'name'],
      ['b', 'name'],
      ['[', 'punctuation'],
      ['prompt', 'attribute'],
      ['=', 'punctuation'],
      ['"line', 'string'],
      ['next"', 'string'],
      [']', 'punctuation'],
    ]);
  });

  it('reads line comments and preprocessor lines as comments', () => {
    expect(tokens('# include\na // note -> b')).toEqual([
      ['# include', 'comment'],
      ['a', 'name'],
      ['// note -> b', 'comment'],
    ]);
  });
});
