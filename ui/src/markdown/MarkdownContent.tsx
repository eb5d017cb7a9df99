/**
 * Markdown as React elements, by `react-markdown` with GitHub's extensions (`remark-gfm`:
 * tables, task lists, strikethrough, autolinks). Raw HTML is never rendered: `htmlAsText`
 * turns it into text first, and there is no `rehype-raw`. Links to http(s) open outside the
 * app (a new tab in a browser, the system's browser from the desktop window, see
 * `linkOpener`); any other target (javascript:, file:, relative paths, mailto:) stays text,
 * with the target in its title, and is never followed. Images are not
 * loaded (a reply could point them anywhere); they show as a link to the picture.
 */
import { useContext, type MouseEvent, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { toApiError } from '../api/apiError';
import { htmlAsText } from './htmlAsText';
import { LinkOpenerContext } from './linkOpener';

const REMARK_PLUGINS = [remarkGfm, htmlAsText];

/** `url` when it is an absolute http or https address, otherwise null. */
export function openableUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  return /^https?:\/\/[^\s]+$/i.test(url.trim()) ? url.trim() : null;
}

/**
 * Keeps every target as written: the `a` and `img` components below decide what may become
 * an attribute, and they only ever put an `openableUrl` there.
 */
function keepUrl(url: string): string {
  return url;
}

/** Whether showing `href` after a link's `text` adds anything (it is not just the text again). */
function targetAddsToText(href: string, text: ReactNode): boolean {
  if (href === '' || href.startsWith('#')) return false;
  return typeof text !== 'string' || (text !== href && `mailto:${text}` !== href);
}

/** A link that cannot be followed: its text, then where it points when `showTarget`. */
function InertLink({ href, showTarget, children }: { href: string; showTarget: boolean; children: ReactNode }) {
  return (
    <span className="markdown__link is-inert" title={href === '' ? undefined : href}>
      <span className="markdown__link-text">{children}</span>
      {showTarget ? <span className="markdown__href">{href}</span> : null}
    </span>
  );
}

/**
 * A link to an http(s) address (`href` is always an `openableUrl`): a new tab in a browser;
 * in the desktop window a click hands it to the system's browser instead of following it.
 */
function OutsideLink({ href, children, className }: { href: string; children: ReactNode; className?: string }) {
  const openLink = useContext(LinkOpenerContext);
  const classes = className === undefined ? 'markdown__link' : `markdown__link ${className}`;
  if (openLink === null) {
    return (
      <a className={classes} href={href} title={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    // Checked again where it is used: only a web address ever leaves the app.
    const url = openableUrl(href);
    if (url === null) return;
    openLink(url).catch((reason: unknown) => {
      window.alert(`Could not open ${url} in your browser: ${toApiError(reason).message}`);
    });
  };
  return (
    <a className={classes} href={href} title={href} rel="noopener noreferrer" onClick={onClick}>
      {children}
    </a>
  );
}

const COMPONENTS: Components = {
  a({ href, children }) {
    const url = openableUrl(href);
    if (url !== null) return <OutsideLink href={url}>{children}</OutsideLink>;
    return (
      <InertLink href={href ?? ''} showTarget={targetAddsToText(href ?? '', children)}>
        {children}
      </InertLink>
    );
  },
  img({ src, alt }) {
    const target = typeof src === 'string' ? src : '';
    const label = `Image: ${alt === undefined || alt === '' ? target : alt}`;
    const url = openableUrl(target);
    return url === null ? (
      <InertLink href={target} showTarget={false}>
        {label}
      </InertLink>
    ) : (
      <OutsideLink href={url} className="markdown__image">
        {label}
      </OutsideLink>
    );
  },
  pre({ node, children }) {
    const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
    const classes = code?.type === 'element' ? code.properties.className : undefined;
    const language = Array.isArray(classes)
      ? classes.map(String).find((c) => c.startsWith('language-'))?.slice('language-'.length)
      : undefined;
    return <pre data-language={language}>{children}</pre>;
  },
  table({ children }) {
    // Wide tables scroll sideways inside the panel instead of widening it.
    return (
      <div className="markdown__table">
        <table>{children}</table>
      </div>
    );
  },
};

/** The rendered Markdown of `source` (loaded on demand by `MarkdownView`). */
export default function MarkdownContent({ source }: { source: string }) {
  return (
    <Markdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS} urlTransform={keepUrl}>
      {source}
    </Markdown>
  );
}
