import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import MarkdownContent, { openableUrl } from './MarkdownContent';
import { MarkdownView } from './MarkdownView';

/** The markup in MarkdownView's box, without the line breaks the renderer puts between blocks. */
const render = (source: string) =>
  renderToStaticMarkup(createElement('div', { className: 'markdown' }, createElement(MarkdownContent, { source }))).replace(
    />\n</g,
    '><',
  );

const NEW_TAB = 'target="_blank" rel="noopener noreferrer"';

describe('MarkdownView', () => {
  it('renders blocks and inline formatting as elements', () => {
    expect(render('## Plan\n\nDo **this** then `that`, *now*.\n\n- a\n- b')).toBe(
      '<div class="markdown"><h2>Plan</h2><p>Do <strong>this</strong> then <code>that</code>, <em>now</em>.</p>' +
        '<ul><li>a</li><li>b</li></ul></div>',
    );
  });

  it('reads setext headings, rules, quotes and hard breaks', () => {
    expect(render('Title\n=====\n\n> quoted\ncontinued\n\n---\n\none  \ntwo')).toBe(
      '<div class="markdown"><h1>Title</h1><blockquote><p>quoted\ncontinued</p></blockquote><hr/>' +
        '<p>one<br/>\ntwo</p></div>',
    );
  });

  it('keeps fenced and indented code verbatim, with the language', () => {
    expect(render('```rust\nfn main() {\n    *x* # not markdown\n}\n```\n\n    cargo test\r\n')).toBe(
      '<div class="markdown"><pre data-language="rust"><code class="language-rust">fn main() {\n    *x* # not markdown\n}\n' +
        '</code></pre><pre><code>cargo test\n</code></pre></div>',
    );
  });

  it('keeps list starts, nesting and loose items', () => {
    expect(render('2. a\n\n3. b')).toBe('<div class="markdown"><ol start="2"><li><p>a</p></li><li><p>b</p></li></ol></div>');
    expect(render('- one\n  - one a\n- two')).toBe(
      '<div class="markdown"><ul><li>one\n<ul><li>one a</li></ul></li><li>two</li></ul></div>',
    );
  });

  it('leaves underscores in words, unmatched delimiters and escapes as text', () => {
    expect(render('set max_node_visits, 2 * 3, a ` tick, \\*not emphasis\\*')).toBe(
      '<div class="markdown"><p>set max_node_visits, 2 * 3, a ` tick, *not emphasis*</p></div>',
    );
  });

  it('keeps long runs of unmatched delimiters as text', () => {
    const text = '*a '.repeat(1000) + '[b '.repeat(1000);
    expect(render(text)).toBe(`<div class="markdown"><p>${text.trim()}</p></div>`);
  });

  it('renders tables, with their column alignment', () => {
    expect(render('| Step | Cost |\n|:-----|-----:|\n| plan | $0.10 |\n| `build` | $1.20 |')).toBe(
      '<div class="markdown"><div class="markdown__table"><table><thead><tr><th style="text-align:left">Step</th>' +
        '<th style="text-align:right">Cost</th></tr></thead><tbody><tr><td style="text-align:left">plan</td>' +
        '<td style="text-align:right">$0.10</td></tr><tr><td style="text-align:left"><code>build</code></td>' +
        '<td style="text-align:right">$1.20</td></tr></tbody></table></div></div>',
    );
  });

  it('renders task lists as disabled checkboxes, and strikethrough', () => {
    expect(render('- [x] plan\n- [ ] ~~build~~ test')).toBe(
      '<div class="markdown"><ul class="contains-task-list">' +
        '<li class="task-list-item"><input type="checkbox" disabled="" checked=""/> plan</li>' +
        '<li class="task-list-item"><input type="checkbox" disabled=""/> <del>build</del> test</li></ul></div>',
    );
  });

  it('shows raw HTML as text, never as markup', () => {
    const html = render(
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\nInline <b onclick="x()">bold</b> and <iframe src="https://e.com"></iframe>',
    );
    expect(html).not.toMatch(/<(script|img|b|iframe)[\s>]/);
    expect(html).toBe(
      '<div class="markdown"><p>&lt;script&gt;alert(1)&lt;/script&gt;</p><p>&lt;img src=x onerror=alert(1)&gt;</p>' +
        '<p>Inline &lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt; and &lt;iframe src=&quot;https://e.com&quot;&gt;&lt;/iframe&gt;</p></div>',
    );
  });

  it('escapes HTML in code', () => {
    expect(render('```\n<b>x</b>\n```')).toBe('<div class="markdown"><pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre></div>');
  });

  it('opens http and https links in a new window, without the opener', () => {
    expect(render('[the *docs*](https://example.com/a "Title") and <http://example.org>')).toBe(
      `<div class="markdown"><p><a class="markdown__link" href="https://example.com/a" title="https://example.com/a" ${NEW_TAB}>` +
        `the <em>docs</em></a> and <a class="markdown__link" href="http://example.org" title="http://example.org" ${NEW_TAB}>` +
        'http://example.org</a></p></div>',
    );
  });

  it('links bare web addresses', () => {
    expect(render('see www.example.com/x or https://example.com.')).toBe(
      `<div class="markdown"><p>see <a class="markdown__link" href="http://www.example.com/x" title="http://www.example.com/x" ${NEW_TAB}>` +
        `www.example.com/x</a> or <a class="markdown__link" href="https://example.com" title="https://example.com" ${NEW_TAB}>` +
        'https://example.com</a>.</p></div>',
    );
  });

  it('shows any other link as text and where it points, without an anchor', () => {
    const html = render('[run](javascript:alert(1)) [plan](docs/PLAN.md) [x](data:text/html,hi) me@example.com');
    expect(html).not.toContain('<a ');
    expect(html).not.toContain('href=');
    expect(html).toBe(
      '<div class="markdown"><p>' +
        '<span class="markdown__link is-inert" title="javascript:alert(1)"><span class="markdown__link-text">run</span>' +
        '<span class="markdown__href">javascript:alert(1)</span></span> ' +
        '<span class="markdown__link is-inert" title="docs/PLAN.md"><span class="markdown__link-text">plan</span>' +
        '<span class="markdown__href">docs/PLAN.md</span></span> ' +
        '<span class="markdown__link is-inert" title="data:text/html,hi"><span class="markdown__link-text">x</span>' +
        '<span class="markdown__href">data:text/html,hi</span></span> ' +
        '<span class="markdown__link is-inert" title="mailto:me@example.com"><span class="markdown__link-text">me@example.com</span></span>' +
        '</p></div>',
    );
  });

  it('does not load images: it links to them instead', () => {
    expect(render('![chart](https://example.com/c.png) ![](file:///etc/passwd)')).toBe(
      `<div class="markdown"><p><a class="markdown__link markdown__image" href="https://example.com/c.png" title="https://example.com/c.png" ${NEW_TAB}>` +
        'Image: chart</a> <span class="markdown__link is-inert" title="file:///etc/passwd">' +
        '<span class="markdown__link-text">Image: file:///etc/passwd</span></span></p></div>',
    );
  });

  it('survives deep nesting', () => {
    const html = render('>'.repeat(300) + ' deep');
    expect(html).toContain('deep');
  });

  it('says when there is nothing to show', () => {
    const view = (source: string) => renderToStaticMarkup(createElement(MarkdownView, { source, className: 'x' }));
    expect(view('')).toBe('<div class="markdown x"><p class="markdown__empty">Nothing to preview.</p></div>');
    expect(view('  \n\n')).toContain('Nothing to preview.');
  });

  it('shows the source as text while the renderer loads', () => {
    expect(renderToStaticMarkup(createElement(MarkdownView, { source: '# Plan <b>' }))).toBe(
      '<div class="markdown"><p class="markdown__plain"># Plan &lt;b&gt;</p></div>',
    );
  });
});

describe('openableUrl', () => {
  it('accepts only absolute http and https addresses', () => {
    expect(openableUrl('https://example.com/a?b#c')).toBe('https://example.com/a?b#c');
    expect(openableUrl('HTTP://EXAMPLE.COM')).toBe('HTTP://EXAMPLE.COM');
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:x', 'data:text/html,x', 'file:///etc', 'docs/a.md', '//evil.com', 'mailto:a@b', '', undefined]) {
      expect(openableUrl(url)).toBeNull();
    }
  });
});
