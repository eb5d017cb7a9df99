import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdownBlocks';

const text = (t: string) => [{ type: 'text', text: t }];

describe('parseMarkdown', () => {
  it('reads headings, paragraphs and rules', () => {
    expect(parseMarkdown('# Plan\n\nRead TASK.md.\nThen write PLAN.md.\n\n---\n\n### Notes ###')).toEqual([
      { type: 'heading', level: 1, content: text('Plan') },
      { type: 'paragraph', content: text('Read TASK.md.\nThen write PLAN.md.') },
      { type: 'rule' },
      { type: 'heading', level: 3, content: text('Notes') },
    ]);
  });

  it('reads setext headings', () => {
    expect(parseMarkdown('Title\n=====\nSub\n---')).toEqual([
      { type: 'heading', level: 1, content: text('Title') },
      { type: 'heading', level: 2, content: text('Sub') },
    ]);
  });

  it('keeps fenced code verbatim with its language', () => {
    expect(parseMarkdown('```rust\nfn main() {\n    *x* # not markdown\n}\n```\nafter')).toEqual([
      { type: 'code', language: 'rust', text: 'fn main() {\n    *x* # not markdown\n}' },
      { type: 'paragraph', content: text('after') },
    ]);
  });

  it('runs an unclosed fence to the end', () => {
    expect(parseMarkdown('~~~\nopen')).toEqual([{ type: 'code', language: null, text: 'open' }]);
  });

  it('reads indented code', () => {
    expect(parseMarkdown('    cargo test\n    cargo fmt\n\ndone')).toEqual([
      { type: 'code', language: null, text: 'cargo test\ncargo fmt' },
      { type: 'paragraph', content: text('done') },
    ]);
  });

  it('reads tight bullet lists with nested lists', () => {
    expect(parseMarkdown('- one\n- two\n  - two a\n- three')).toEqual([
      {
        type: 'list',
        ordered: false,
        start: 1,
        tight: true,
        items: [
          [{ type: 'paragraph', content: text('one') }],
          [
            { type: 'paragraph', content: text('two') },
            {
              type: 'list',
              ordered: false,
              start: 1,
              tight: true,
              items: [[{ type: 'paragraph', content: text('two a') }]],
            },
          ],
          [{ type: 'paragraph', content: text('three') }],
        ],
      },
    ]);
  });

  it('reads ordered lists with their start, and loose lists', () => {
    const [list] = parseMarkdown('3. first\n\n4. second\n   more of it');
    expect(list).toEqual({
      type: 'list',
      ordered: true,
      start: 3,
      tight: false,
      items: [
        [{ type: 'paragraph', content: text('first') }],
        [{ type: 'paragraph', content: text('second\nmore of it') }],
      ],
    });
  });

  it('starts a new list when the bullet changes', () => {
    const blocks = parseMarkdown('- a\n* b');
    expect(blocks.map((b) => b.type)).toEqual(['list', 'list']);
  });

  it('lets a list interrupt a paragraph', () => {
    expect(parseMarkdown('Steps:\n- plan\n- build').map((b) => b.type)).toEqual(['paragraph', 'list']);
  });

  it('reads block quotes, with lazy continuation', () => {
    expect(parseMarkdown('> quoted\ncontinued\n> # Title')).toEqual([
      {
        type: 'quote',
        blocks: [
          { type: 'paragraph', content: text('quoted\ncontinued') },
          { type: 'heading', level: 1, content: text('Title') },
        ],
      },
    ]);
  });

  it('reads HTML as text', () => {
    expect(parseMarkdown('<img src=x onerror=alert(1)>')).toEqual([
      { type: 'paragraph', content: text('<img src=x onerror=alert(1)>') },
    ]);
  });

  it('reads CRLF line ends and tabs', () => {
    expect(parseMarkdown('a\r\n\r\n\tcode')).toEqual([
      { type: 'paragraph', content: text('a') },
      { type: 'code', language: null, text: 'code' },
    ]);
  });

  it('stops nesting at a depth limit', () => {
    const blocks = parseMarkdown('>'.repeat(500) + ' deep');
    let depth = 0;
    let current = blocks[0];
    while (current?.type === 'quote') {
      depth++;
      current = current.blocks[0];
    }
    expect(depth).toBeLessThanOrEqual(17);
    expect(current?.type).toBe('paragraph');
  });

  it('has no blocks for blank text', () => {
    expect(parseMarkdown('  \n\n')).toEqual([]);
  });
});
