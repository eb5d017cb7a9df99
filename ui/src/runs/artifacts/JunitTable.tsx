import type { Api } from '../../api/Api';
import type { JUnitReport } from '../../generated/JUnitReport';
import type { RunFileRequest } from '../../generated/RunFileRequest';
import { type ApiRead, useApiRead } from '../../api/useApiRead';
import { countsSummary, hasProblems, reportCounts, suiteCounts } from './junit';
import { JunitCaseRows } from './JunitCaseRows';
import './junit-table.css';

const loadJunitReport = (api: Api, req: RunFileRequest) => api.junitReport(req);

/** A parsed report as tables of its suites and cases. */
export function JunitReportTables({ report }: { report: JUnitReport }) {
  if (report.suites.length === 0) return <p className="muted">The file lists no test suites.</p>;
  return (
    <>
      {report.suites.map((suite, i) => (
        <table key={`${suite.name}-${i}`} className="junit-suite">
          <caption>
            <span className="junit-suite__name">{suite.name || 'Test suite'}</span>
            <span className={`junit-suite__counts${hasProblems(suite) ? ' has-problems' : ''}`}>
              {countsSummary(suiteCounts(suite))}
            </span>
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
              suite.cases.map((testCase, j) => (
                <JunitCaseRows key={`${testCase.classname ?? ''}.${testCase.name}-${j}`} testCase={testCase} />
              ))
            )}
          </tbody>
        </table>
      ))}
    </>
  );
}

/** A run's JUnit file as loaded so far: its report, or why there is none (shown as an alert). */
export function JunitResult({ result }: { result: ApiRead<JUnitReport> }) {
  const outcome =
    result.state === 'ready' ? (hasProblems(reportCounts(result.value)) ? 'failed' : 'passed') : undefined;
  const counts = result.state === 'ready' ? reportCounts(result.value) : null;
  return (
    <div className="junit-table" data-testid="junit-table" data-state={result.state} data-outcome={outcome}>
      {result.state === 'loading' ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Reading the test results…
        </p>
      ) : result.state === 'failed' ? (
        <p className="junit-table__error" role="alert">
          {result.error.message}
        </p>
      ) : (
        <>
          <p className={`junit-table__summary${outcome === 'failed' ? ' has-problems' : ''}`}>
            {counts === null ? null : countsSummary(counts)}
          </p>
          <JunitReportTables report={result.value} />
        </>
      )}
    </div>
  );
}

/** A JUnit XML file of a run (`path` under its artifacts), as the API parsed it. */
export function JunitTable({ runId, path }: { runId: string; path: string }) {
  const result = useApiRead({ run_id: runId, area: 'artifacts', path } satisfies RunFileRequest, loadJunitReport);
  return <JunitResult result={result} />;
}
