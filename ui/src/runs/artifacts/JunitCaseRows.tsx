import { useId, useState } from 'react';
import type { CaseStatus } from '../../generated/CaseStatus';
import type { JUnitCase } from '../../generated/JUnitCase';
import { formatSeconds } from './junit';

const STATUS_TEXT: Record<CaseStatus, string> = {
  passed: 'Passed',
  failed: 'Failed',
  errored: 'Error',
  skipped: 'Skipped',
};

const STATUS_GLYPH: Record<CaseStatus, string> = {
  passed: '✓',
  failed: '✕',
  errored: '!',
  skipped: '–',
};

/** The CSS modifier of a status (the stylesheet's names). */
const STATUS_CSS: Record<CaseStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  errored: 'error',
  skipped: 'skipped',
};

/**
 * One test case as a table row, followed by its details (message, stack trace, output) when
 * expanded; failures and errors start expanded, everything else collapsed.
 */
export function JunitCaseRows({ testCase }: { testCase: JUnitCase }) {
  const { status, message, text: details, system_out: systemOut, system_err: systemErr } = testCase;
  const hasDetails = message !== null || details !== null || systemOut !== null || systemErr !== null;
  const [open, setOpen] = useState(status === 'failed' || status === 'errored');
  const css = STATUS_CSS[status];
  const detailsId = useId();
  return (
    <>
      <tr className={`junit-case is-${css}`} data-status={css}>
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
          {testCase.classname !== null ? <span className="junit-case__class">{testCase.classname}</span> : null}
        </td>
        <td className="is-number">{formatSeconds(testCase.time)}</td>
      </tr>
      {hasDetails && open ? (
        <tr className={`junit-case__details is-${css}`} id={detailsId}>
          <td colSpan={3}>
            {message !== null ? (
              <p className="junit-case__message">
                {testCase.failure_type !== null ? <code>{testCase.failure_type}</code> : null} {message}
              </p>
            ) : null}
            {details !== null && details !== message ? <pre className="junit-case__trace">{details}</pre> : null}
            {systemOut !== null ? (
              <details className="junit-case__output">
                <summary>Standard output</summary>
                <pre>{systemOut}</pre>
              </details>
            ) : null}
            {systemErr !== null ? (
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
