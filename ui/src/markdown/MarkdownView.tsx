/**
 * Markdown shown safely in side panels and previews (see `MarkdownContent` for what is
 * rendered and what never is). The renderer is loaded the first time Markdown is shown, so
 * the app starts without it; until then the source shows as plain text.
 */
import { lazy, Suspense } from 'react';
import './markdown.css';

const MarkdownContent = lazy(() => import('./MarkdownContent'));

/** Markdown rendered as elements, in a `.markdown` box. */
export function MarkdownView({ source, className }: { source: string; className?: string }) {
  return (
    <div className={className === undefined ? 'markdown' : `markdown ${className}`}>
      {source.trim() === '' ? (
        <p className="markdown__empty">Nothing to preview.</p>
      ) : (
        <Suspense fallback={<p className="markdown__plain">{source}</p>}>
          <MarkdownContent source={source} />
        </Suspense>
      )}
    </div>
  );
}
