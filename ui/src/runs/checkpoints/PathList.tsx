import { useState } from 'react';

/** Paths listed before "Show all". */
const FIRST = 30;

/** A titled list of file paths with its count; long lists show the first few until asked. */
export function PathList({ title, paths, testId }: { title: string; paths: string[]; testId?: string }) {
  const [all, setAll] = useState(false);
  if (paths.length === 0) return null;
  const shown = all ? paths : paths.slice(0, FIRST);
  return (
    <div className="path-list" data-testid={testId}>
      <h3 className="path-list__title">
        {title} ({paths.length})
      </h3>
      <ul className="path-list__items">
        {shown.map((path) => (
          <li key={path}>
            <code>{path}</code>
          </li>
        ))}
      </ul>
      {shown.length < paths.length ? (
        <button type="button" className="button is-small" onClick={() => setAll(true)}>
          Show all {paths.length}
        </button>
      ) : null}
    </div>
  );
}
