import { useId, useState } from 'react';
import { formatSeconds, type JunitCase, type JunitStatus } from './junit';

const STATUS_TEXT: Record<JunitStatus, string> = {
  passed: 'Passed',
  failed: 'Failed',
  error: 'Error',
  skipped: 'Skipped',
};

const STATUS_GLYPH: Record<JunitStatus, string> = {
  passed: '✓',
  failed: '✕',
  error: '!',
  skipped: '–',
};

/**
 * One test case as a table row, followed by its details (message, stack trace, output) when
 * expanded; failures and errors start expanded, everything else collapsed.
 */
export function JunitCaseRows({ testCase }: { testCase: JunitCase }) {
  const { status, message, details, systemOut, systemErr } = testCase;
  const hasDetails = message !== '' || details !== '' || systemOut !== '' || systemErr !== '';
  const [open, setOpen] = useState(status === 'failed' || status === 'error');
  const detailsId = useId();
  return (
    <>
      <tr className={`junit-case is-${status}`} data-status={status}>
        <td className="junit-case__status" title={STATUS_TEXT[status]}>
          <span className="junit-status" aria-hidden="true">
            {STATUS_GLYPH[status]}
          </span>
          <span className="artifact-visually-hidden">{STATUS_TEXT[status]}</span>
        </td>
        <td className="junit-case__name">
          {hasDetails ? (
            <button
              type="button"
              className="junit-case__toggle"
              aria-expanded={open}
              aria-controls={open ? detailsId : undefined}
              onClick={() => setOpen((o) => !o)}
            >
              <span className="junit-case__chevron" aria-hidden="true">
                {open ? '▾' : '▸'}
              </span>
              {testCase.name || '(unnamed)'}
            </button>
          ) : (
            <span className="junit-case__label">{testCase.name || '(unnamed)'}</span>
          )}
          {testCase.classname !== '' ? <span className="junit-case__class">{testCase.classname}</span> : null}
        </td>
        <td className="is-number">{formatSeconds(testCase.time)}</td>
      </tr>
      {hasDetails && open ? (
        <tr className={`junit-case__details is-${status}`} id={detailsId}>
          <td colSpan={3}>
            {message !== '' ? (
              <p className="junit-case__message">
                {testCase.type !== '' ? <code>{testCase.type}</code> : null} {message}
              </p>
            ) : null}
            {details !== '' && details !== message ? <pre className="junit-case__trace">{details}</pre> : null}
            {systemOut !== '' ? (
              <details className="junit-case__output">
                <summary>Standard output</summary>
                <pre>{systemOut}</pre>
              </details>
            ) : null}
            {systemErr !== '' ? (
              <details className="junit-case__output">
                <summary>Standard error</summary>
                <pre>{systemErr}</pre>
              </details>
            ) : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}
