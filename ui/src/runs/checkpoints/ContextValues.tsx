import type { CheckpointState } from '../../generated/CheckpointState';
import type { ApiRead } from '../../api/useApiRead';

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}

/** The context a checkpoint saved: every key with its value, internal keys last. */
export function ContextValues({ saved }: { saved: ApiRead<CheckpointState> }) {
  if (saved.state === 'loading') {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Reading the saved state…
      </p>
    );
  }
  if (saved.state === 'failed') {
    return (
      <p className="banner is-error" role="alert">
        The saved state could not be read: {saved.error.message}
      </p>
    );
  }
  const entries = Object.entries(saved.value.context_values).sort(([a], [b]) => {
    const internal = (key: string) => (key.startsWith('internal.') ? 1 : 0);
    return internal(a) - internal(b) || a.localeCompare(b);
  });
  return (
    <section className="checkpoint-context__values" data-testid="checkpoint-context-values">
      <h4>Context ({entries.length})</h4>
      {entries.length === 0 ? <p className="muted">The context was empty.</p> : null}
      <dl>
        {entries.map(([key, value]) => (
          <div key={key} className="checkpoint-context__value">
            <dt>
              <code>{key}</code>
            </dt>
            <dd>
              <pre>{shown(value)}</pre>
            </dd>
          </div>
        ))}
      </dl>
      {saved.value.logs.length > 0 ? (
        <>
          <h4>Log</h4>
          <ul>
            {saved.value.logs.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
