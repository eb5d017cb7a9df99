import { describe, expect, it } from 'vitest';
import { parseInline } from './markdownInline';

describe('parseInline', () => {
  it('keeps plain text as one text node', () => {
    expect(parseInline('Read TASK.md first.')).toEqual([{ type: 'text', text: 'Read TASK.md first.' }]);
  });

  it('reads emphasis, strong and code spans', () => {
    expect(parseInline('a *b* **c** `d`')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'emphasis', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'strong', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'd' },
    ]);
  });

  it('nests strong inside emphasis', () => {
    expect(parseInline('*a **b** c*')).toEqual([
      {
        type: 'emphasis',
        children: [
          { type: 'text', text: 'a ' },
          { type: 'strong', children: [{ type: 'text', text: 'b' }] },
          { type: 'text', text: ' c' },
        ],
      },
    ]);
  });

  it('leaves underscores inside words alone', () => {
    expect(parseInline('set max_node_visits and retry_target')).toEqual([
      { type: 'text', text: 'set max_node_visits and retry_target' },
    ]);
    expect(parseInline('_word_')).toEqual([{ type: 'emphasis', children: [{ type: 'text', text: 'word' }] }]);
  });

  it('keeps unmatched delimiters and backticks as text', () => {
    expect(parseInline('2 * 3 and a ` tick and *open')).toEqual([
      { type: 'text', text: '2 * 3 and a ` tick and *open' },
    ]);
  });

  it('does not read emphasis inside code spans', () => {
    expect(parseInline('`*not* emphasis`')).toEqual([{ type: 'code', text: '*not* emphasis' }]);
    expect(parseInline('`` a ` b ``')).toEqual([{ type: 'code', text: 'a ` b' }]);
  });

  it('reads links with their target, and autolinks', () => {
    expect(parseInline('see [the *docs*](https://example.com/a "Title") now')).toEqual([
      { type: 'text', text: 'see ' },
      {
        type: 'link',
        href: 'https://example.com/a',
        children: [
          { type: 'text', text: 'the ' },
          { type: 'emphasis', children: [{ type: 'text', text: 'docs' }] },
        ],
      },
      { type: 'text', text: ' now' },
    ]);
    expect(parseInline('<https://example.com>')).toEqual([
      { type: 'link', href: 'https://example.com', children: [{ type: 'text', text: 'https://example.com' }] },
    ]);
  });

  it('keeps brackets without a target as text', () => {
    expect(parseInline('[x] done [y]')).toEqual([{ type: 'text', text: '[x] done [y]' }]);
  });

  it('honours backslash escapes', () => {
    expect(parseInline('\\*not emphasis\\*')).toEqual([{ type: 'text', text: '*not emphasis*' }]);
  });

  it('makes hard breaks from two trailing spaces or a backslash', () => {
    expect(parseInline('one  \ntwo\\\nthree\nfour')).toEqual([
      { type: 'text', text: 'one' },
      { type: 'break' },
      { type: 'text', text: 'two' },
      { type: 'break' },
      { type: 'text', text: 'three\nfour' },
    ]);
  });

  it('keeps HTML as text', () => {
    expect(parseInline('<script>alert(1)</script>')).toEqual([{ type: 'text', text: '<script>alert(1)</script>' }]);
  });

  it('handles long runs of unmatched delimiters', () => {
    const text = '*a '.repeat(20_000) + '[b '.repeat(20_000) + '`'.repeat(3);
    const nodes = parseInline(text);
    expect(nodes).toEqual([{ type: 'text', text }]);
  });
});
