import { useMemo } from 'react';
import { formatSeconds, hasProblems, JunitFormatError, parseJunit, type JunitCounts, type JunitReport } from './junit';
import { JunitCaseRows } from './JunitCaseRows';
import { useFetchedText } from './useFetchedText';
import './junit-table.css';

type Parsed = { ok: true; report: JunitReport } | { ok: false; message: string };

function parse(text: string): Parsed {
  try {
    return { ok: true, report: parseJunit(text) };
  } catch (error) {
    if (error instanceof JunitFormatError) return { ok: false, message: error.message };
    throw error;
  }
}

/** "3 tests: 2 passed, 1 failed · 0.42 s" (counts that are zero left out). */
function summary(counts: JunitCounts): string {
  const passed = counts.tests - counts.failures - counts.errors - counts.skipped;
  const parts = [
    [passed, 'passed'],
    [counts.failures, 'failed'],
    [counts.errors, counts.errors === 1 ? 'error' : 'errors'],
    [counts.skipped, 'skipped'],
  ] as const;
  const listed = parts.filter(([n]) => n > 0).map(([n, word]) => `${n} ${word}`);
  const head = `${counts.tests} ${counts.tests === 1 ? 'test' : 'tests'}${listed.length > 0 ? `: ${listed.join(', ')}` : ''}`;
  const time = formatSeconds(counts.time);
  return time === '' ? head : `${head} · ${time}`;
}

function ReportTables({ report }: { report: JunitReport }) {
  if (report.suites.length === 0) return <p className="muted">The file lists no test suites.</p>;
  return (
    <>
      {report.suites.map((suite, i) => (
        <table key={`${suite.name}-${i}`} className="junit-suite">
          <caption>
            <span className="junit-suite__name">{suite.name || 'Test suite'}</span>
            <span className={`junit-suite__counts${hasProblems(suite) ? ' has-problems' : ''}`}>{summary(suite)}</span>
          </caption>
          <thead>
            <tr>
              <th scope="col" className="junit-case__status">
                <span className="artifact-visually-hidden">Status</span>
              </th>
              <th scope="col">Test</th>
              <th scope="col" className="is-number">
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {suite.cases.length === 0 ? (
              <tr>
                <td colSpan={3} className="muted">
                  No test cases are listed in this suite.
                </td>
              </tr>
            ) : (
              suite.cases.map((testCase, j) => <JunitCaseRows key={`${testCase.classname}.${testCase.name}-${j}`} testCase={testCase} />)
            )}
          </tbody>
        </table>
      ))}
    </>
  );
}

/** A JUnit XML file fetched from `url`, as tables of its suites and cases. */
export function JunitTable({ url }: { url: string }) {
  const file = useFetchedText(url);
  const parsed = useMemo(() => (file.status === 'loaded' ? parse(file.text) : null), [file]);
  const outcome = parsed?.ok ? (hasProblems(parsed.report) ? 'failed' : 'passed') : undefined;
  return (
    <div className="junit-table" data-testid="junit-table" data-state={file.status} data-outcome={outcome}>
      {file.status === 'loading' ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Reading the test results…
        </p>
      ) : file.status === 'failed' ? (
        <p className="junit-table__error" role="alert">
          {file.message}
        </p>
      ) : parsed === null ? null : !parsed.ok ? (
        <p className="junit-table__error" role="alert">
          {parsed.message}
        </p>
      ) : (
        <>
          <p className={`junit-table__summary${outcome === 'failed' ? ' has-problems' : ''}`}>{summary(parsed.report)}</p>
          <ReportTables report={parsed.report} />
        </>
      )}
    </div>
  );
}
