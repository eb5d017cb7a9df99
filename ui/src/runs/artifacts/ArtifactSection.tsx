import type { ReactNode } from 'react';

/** One section of the artifact viewer: a heading with a count, then its items. */
export function ArtifactSection({
  title,
  count,
  kind,
  children,
}: {
  title: string;
  count: number;
  /** For styling and tests (`data-kind`). */
  kind: string;
  children: ReactNode;
}) {
  return (
    <section className="artifact-section" data-kind={kind} aria-label={title}>
      <h3 className="artifact-section__title">
        {title}
        <span className="artifact-section__count">{count}</span>
      </h3>
      {children}
    </section>
  );
}
