// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import MarkdownContent from './MarkdownContent';
import { LinkOpenerContext, type OpenLink } from './linkOpener';

// React checks this flag before letting `act` flush updates outside a test renderer.
Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

const SOURCE = [
  '[docs](https://example.com/docs?a=1) [plain](http://example.org/)',
  '[run](javascript:alert(1)) [secrets](file:///etc/passwd) [mail](mailto:a@b.c)',
  '![chart](https://example.com/c.png) ![local](file:///tmp/x.png)',
].join('\n\n');

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.restoreAllMocks();
});

/** Renders `SOURCE` with `opener` as the app's link opener (null: a browser). */
async function show(opener: OpenLink | null) {
  await act(async () => {
    root.render(createElement(LinkOpenerContext.Provider, { value: opener }, createElement(MarkdownContent, { source: SOURCE })));
  });
}

/** Clicks like a person; true when nothing stopped the click from following the link. */
function click(element: Element): boolean {
  return element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
}

/** The element showing `text`, anchor or not. */
function byText(text: string): Element {
  const found = [...container.querySelectorAll('a, span.markdown__link')].find((el) => el.textContent?.startsWith(text));
  if (found === undefined) throw new Error(`no link showing ${text}: ${container.innerHTML}`);
  return found;
}

describe('links in rendered Markdown', () => {
  it('in the desktop window hand http(s) addresses to the opener instead of following them', async () => {
    const opener = vi.fn<OpenLink>(() => Promise.resolve());
    await show(opener);
    for (const [text, url] of [
      ['docs', 'https://example.com/docs?a=1'],
      ['plain', 'http://example.org/'],
      ['Image: chart', 'https://example.com/c.png'],
    ] as const) {
      const link = byText(text);
      expect(link.tagName).toBe('A');
      expect(link.getAttribute('href')).toBe(url);
      // No new window: the desktop refuses those, the opener does the job.
      expect(link.hasAttribute('target')).toBe(false);
      expect(click(link), `${text} was followed`).toBe(false);
      expect(opener).toHaveBeenLastCalledWith(url);
    }
    expect(opener).toHaveBeenCalledTimes(3);
  });

  it('never open javascript:, file: or mailto: targets, which stay text with their target as title', async () => {
    const opener = vi.fn<OpenLink>(() => Promise.resolve());
    await show(opener);
    for (const [text, target] of [
      ['run', 'javascript:alert(1)'],
      ['secrets', 'file:///etc/passwd'],
      ['mail', 'mailto:a@b.c'],
      ['Image: local', 'file:///tmp/x.png'],
    ] as const) {
      const shown = byText(text);
      expect(shown.tagName).toBe('SPAN');
      expect(shown.getAttribute('title')).toBe(target);
      click(shown);
    }
    expect(container.querySelectorAll('a')).toHaveLength(3);
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/docs?a=1',
      'http://example.org/',
      'https://example.com/c.png',
    ]);
    expect(opener).not.toHaveBeenCalled();
  });

  it('say so when the opener fails', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await show(() => Promise.reject({ code: 'io', message: 'no browser configured' }));
    await act(async () => {
      click(byText('docs'));
    });
    expect(alert).toHaveBeenCalledWith('Could not open https://example.com/docs?a=1 in your browser: no browser configured');
  });

  it('in a browser are plain links opening a new tab, without the opener', async () => {
    await show(null);
    const anchors = [...container.querySelectorAll('a')];
    expect(anchors.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')])).toEqual([
      ['https://example.com/docs?a=1', '_blank', 'noopener noreferrer'],
      ['http://example.org/', '_blank', 'noopener noreferrer'],
      ['https://example.com/c.png', '_blank', 'noopener noreferrer'],
    ]);
    // jsdom does not navigate; the click is simply not stopped.
    expect(click(anchors[0]!)).toBe(true);
    expect(byText('run').tagName).toBe('SPAN');
  });
});
