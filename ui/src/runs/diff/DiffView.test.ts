import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DiffView } from './DiffView';

const render = (patch: string) => renderToStaticMarkup(createElement(DiffView, { patch }));

describe('DiffView', () => {
  it('renders a file with its counts, numbered lines and kinds', () => {
    const html = render(
      ['diff --git a/a.txt b/a.txt', '--- a/a.txt', '+++ b/a.txt', '@@ -1,2 +1,2 @@', ' same', '-old', '+new', ''].join('\n'),
    );
    expect(html).toContain('data-path="a.txt"');
    expect(html).toContain('+1</span>');
    expect(html).toContain('−1</span>');
    expect(html).toContain('class="diff-line is-del"');
    expect(html).toContain('class="diff-line is-add"');
    expect(html).toContain('data-line="2"');
  });

  it('folds a long file behind Show', () => {
    const body = Array.from({ length: 500 }, (_, i) => `+line ${i}`);
    const html = render(['diff --git a/big b/big', '--- /dev/null', '+++ b/big', '@@ -0,0 +1,500 @@', ...body, ''].join('\n'));
    expect(html).toContain('500 lines');
    expect(html).toContain('>Show</button>');
    expect(html).not.toContain('line 0');
  });

  it('says when nothing changed', () => {
    expect(render('')).toContain('No changes.');
  });
});
