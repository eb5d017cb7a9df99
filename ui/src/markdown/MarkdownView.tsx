import { createElement, Fragment, useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Block } from './markdownBlocks';
import type { Inline } from './markdownInline';
import './markdown.css';

function renderInline(nodes: readonly Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'code':
        return <code key={i}>{node.text}</code>;
      case 'strong':
        return <strong key={i}>{renderInline(node.children)}</strong>;
      case 'emphasis':
        return <em key={i}>{renderInline(node.children)}</em>;
      case 'break':
        return <br key={i} />;
      case 'link': {
        // Shown, never followed: the text, then where it points.
        const sameAsText = node.children.length === 1 && node.children[0]?.type === 'text' && node.children[0].text === node.href;
        return (
          <span key={i} className="markdown__link" title={node.href}>
            <span className="markdown__link-text">{renderInline(node.children)}</span>
            {sameAsText || node.href === '' ? null : <span className="markdown__href">{node.href}</span>}
          </span>
        );
      }
    }
  });
}

function renderBlocks(blocks: readonly Block[], tight: boolean): ReactNode[] {
  return blocks.map((block, i) => {
    switch (block.type) {
      case 'heading':
        return createElement(`h${block.level}`, { key: i }, renderInline(block.content));
      case 'paragraph':
        return tight ? (
          <Fragment key={i}>{renderInline(block.content)}</Fragment>
        ) : (
          <p key={i}>{renderInline(block.content)}</p>
        );
      case 'code':
        return (
          <pre key={i} data-language={block.language ?? undefined}>
            <code>{block.text}</code>
          </pre>
        );
      case 'list': {
        const items = block.items.map((item, j) => <li key={j}>{renderBlocks(item, block.tight)}</li>);
        return block.ordered ? (
          <ol key={i} start={block.start === 1 ? undefined : block.start}>
            {items}
          </ol>
        ) : (
          <ul key={i}>{items}</ul>
        );
      }
      case 'quote':
        return <blockquote key={i}>{renderBlocks(block.blocks, false)}</blockquote>;
      case 'rule':
        return <hr key={i} />;
    }
  });
}

/**
 * Markdown shown as React elements: every piece of text stays text (no HTML is ever
 * injected), and links show where they point instead of navigating.
 */
export function MarkdownView({ source, className }: { source: string; className?: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return (
    <div className={className === undefined ? 'markdown' : `markdown ${className}`}>
      {blocks.length === 0 ? <p className="markdown__empty">Nothing to preview.</p> : renderBlocks(blocks, false)}
    </div>
  );
}
