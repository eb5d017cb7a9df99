import { useEffect, useMemo, useState } from 'react';
import type { Api } from '../api/Api';
import { shownValue, useApiRead } from '../api/useApiRead';
import type { ListRunsRequest } from '../generated/ListRunsRequest';
import type { RunRecord } from '../generated/RunRecord';
import type { RunStatus } from '../generated/RunStatus';
import { formatBudget } from './runBudget';
import { RUN_STATUS_LABEL, formatCostOfLimit, formatDuration, formatStarted, formatTokens } from './runFormat';
import { RunQueuePanel } from './queue/RunQueuePanel';
import { matchesSearch } from './runSearch';
import { RunStatusBadge } from './RunStatusBadge';

const STATUSES: RunStatus[] = ['running', 'success', 'fail', 'cancelled', 'interrupted'];
/** While a listed run is running, the list is read again this often. */
const POLL_MS = 2000;

const listRuns = (api: Api, request: ListRunsRequest) => api.listRuns(request);

/** The cost cell's tooltip: the tokens used, and the budget the run ran under when it had one. */
function costTitle(run: RunRecord): string {
  const tokens = formatTokens(run.input_tokens, run.output_tokens);
  const budget = formatBudget({ max_cost_usd: run.max_cost_usd, max_tokens: run.max_tokens });
  return budget === null ? tokens : `${tokens}; budget ${budget}`;
}

/**
 * Every run, newest first: status, workflow, start, duration, cost, labels; searchable. The
 * run queue and its workers above them when there are any.
 */
export function RunsList({ onOpenRun, now }: { onOpenRun: (runId: string) => void; now: number }) {
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<RunStatus | 'all'>('all');
  const listed = useApiRead(
    {
      filter: {
        status: status === 'all' ? [] : [status],
        workflow: null,
        labels: {},
        since: null,
        until: null,
        parent_run_id: null,
        include_children: false,
      },
      page: { limit: 500, after: null },
    } satisfies ListRunsRequest,
    listRuns,
  );
  // The list read before stays up while it is read again.
  const page = shownValue(listed);
  const runs: RunRecord[] | null = page?.items ?? null;
  const total = page?.total ?? 0;
  const error = listed.state === 'failed' ? listed.error : null;
  const { reload } = listed;

  const anyRunning = runs?.some((r) => r.status === 'running') ?? false;
  useEffect(() => {
    if (!anyRunning) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [anyRunning, page, reload]);

  const shown = useMemo(() => (runs ?? []).filter((run) => matchesSearch(run, query)), [runs, query]);

  return (
    <section className="runs-list" data-testid="runs-list" aria-label="Runs">
      <RunQueuePanel onOpenRun={onOpenRun} onHeldRunsChange={reload} />
      <header className="runs-list__header">
        <h2>Runs</h2>
        <input
          type="search"
          className="input runs-list__search"
          placeholder="Search id, workflow, goal, label=value…"
          aria-label="Search runs"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <select className="input" aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as RunStatus | 'all')}>
          <option value="all">Any status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {RUN_STATUS_LABEL[s]}
            </option>
          ))}
        </select>
        <button type="button" className="button is-small" onClick={reload}>
          Refresh
        </button>
      </header>
      {error !== null ? (
        <div className="banner is-error" role="alert">
          <strong>Could not list runs</strong> <span>{error.message}</span>
        </div>
      ) : null}
      {runs === null && error === null ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading runs…
        </p>
      ) : null}
      {runs !== null && shown.length === 0 ? (
        <p className="muted runs-list__empty">
          {runs.length === 0 ? 'No runs yet. Open a workflow and press Run.' : 'No run matches the search.'}
        </p>
      ) : null}
      {shown.length > 0 ? (
        <table className="runs-table">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Workflow</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
              <th scope="col">Cost</th>
              <th scope="col">Labels</th>
              <th scope="col">Run</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((run) => (
              <tr key={run.id} data-testid="run-row" data-run-id={run.id} data-status={run.status}>
                <td>
                  <RunStatusBadge status={run.status} />
                </td>
                <td>
                  <button type="button" className="link-button runs-table__open" onClick={() => onOpenRun(run.id)}>
                    {run.workflow_name}
                  </button>
                  {run.goal !== null ? <div className="runs-table__goal muted">{run.goal}</div> : null}
                </td>
                <td title={run.started_at}>{formatStarted(run.started_at, now)}</td>
                <td className="runs-table__number">
                  {run.duration_ms !== null
                    ? formatDuration(run.duration_ms)
                    : run.status === 'running'
                      ? formatDuration(now - Date.parse(run.started_at))
                      : '–'}
                </td>
                <td
                  className="runs-table__number"
                  data-testid="run-cost"
                  title={costTitle(run)}
                >
                  {formatCostOfLimit(run.cost_usd, run.max_cost_usd)}
                </td>
                <td>
                  {Object.entries(run.labels).map(([k, v]) => (
                    <span key={k} className="label-chip">
                      {k}={v}
                    </span>
                  ))}
                  {run.dry_run ? <span className="label-chip is-muted">dry run</span> : null}
                </td>
                <td className="runs-table__id">
                  <code>{run.id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {runs !== null && total > runs.length ? (
        <p className="muted">Showing the newest {runs.length} of {total} runs.</p>
      ) : null}
    </section>
  );
}
