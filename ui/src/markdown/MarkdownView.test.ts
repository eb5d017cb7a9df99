import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownView } from './MarkdownView';

const render = (source: string) => renderToStaticMarkup(createElement(MarkdownView, { source }));

describe('MarkdownView', () => {
  it('renders blocks and inline formatting as elements', () => {
    expect(render('## Plan\n\nDo **this** then `that`.\n\n- a\n- b')).toBe(
      '<div class="markdown"><h2>Plan</h2><p>Do <strong>this</strong> then <code>that</code>.</p>' +
        '<ul><li>a</li><li>b</li></ul></div>',
    );
  });

  it('escapes HTML in text, code and links instead of passing it through', () => {
    const html = render('<script>alert(1)</script>\n\n```\n<b>x</b>\n```\n\n[<i>t</i>](javascript:alert(1))');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<i>');
    expect(html).not.toContain('href=');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>');
  });

  it('shows a link as its text and target, without an anchor', () => {
    expect(render('[docs](https://example.com)')).toBe(
      '<div class="markdown"><p><span class="markdown__link" title="https://example.com">' +
        '<span class="markdown__link-text">docs</span><span class="markdown__href">https://example.com</span>' +
        '</span></p></div>',
    );
  });

  it('keeps an ordered list start and a loose list paragraphs', () => {
    expect(render('2. a\n\n3. b')).toBe('<div class="markdown"><ol start="2"><li><p>a</p></li><li><p>b</p></li></ol></div>');
  });

  it('says when there is nothing to show', () => {
    expect(render('')).toContain('Nothing to preview.');
  });
});
