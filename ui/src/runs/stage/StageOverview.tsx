import type { RunEvent } from '../../api/runEvent';
import type { TimelineStage } from '../../generated/TimelineStage';
import { formatDuration } from '../runFormat';
import { describeReason, routingDecision } from './routingDecision';
import { parseStageStatus, type StageStatusFile } from './stageStatus';
import { useStageFile } from './useStageFile';

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

function parsed(text: string): StageStatusFile | string {
  try {
    return parseStageStatus(text);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** A stage visit at a glance: outcome, routing decision, failure, tokens and cost, files, context updates. */
export function StageOverview({
  runId,
  stage,
  stageFolder,
  events,
  version,
}: {
  runId: string;
  stage: TimelineStage;
  stageFolder: string;
  /** The run's events (at least those of this stage); null while they are being read. */
  events: readonly RunEvent[] | null;
  version: unknown;
}) {
  const file = useStageFile(runId, stageFolder, 'status.json', version);
  const status = file.state === 'ready' ? parsed(file.text) : null;
  const route = events === null ? null : routingDecision(events, stage.node_id, stage.started_at);
  const tokens = status !== null && typeof status !== 'string' ? Object.entries(status.usage) : [];
  return (
    <div className="stage-overview">
      <dl className="stage-facts">
        <dt>Status</dt>
        <dd data-testid="stage-status">{stage.status}</dd>
        <dt>Duration</dt>
        <dd>{stage.duration_ms === null ? 'running' : formatDuration(stage.duration_ms)}</dd>
        <dt>Attempts</dt>
        <dd>
          {stage.attempts}
          {stage.retries > 0 ? ` (${stage.retries} retr${stage.retries === 1 ? 'y' : 'ies'}${stage.last_retry_reason !== null ? `: ${stage.last_retry_reason}` : ''})` : ''}
        </dd>
        {stage.notes !== null && stage.notes !== '' ? (
          <>
            <dt>Notes</dt>
            <dd>{stage.notes}</dd>
          </>
        ) : null}
        <dt>Routed to</dt>
        <dd data-testid="stage-route">
          {events === null ? (
            <span className="muted">reading…</span>
          ) : route === null ? (
            <span className="muted">{stage.ended_at === null ? 'not yet' : 'nowhere (the run stopped here)'}</span>
          ) : (
            <>
              <code>{route.to}</code>
              {route.label !== null ? ` via “${route.label}”` : ''}: {describeReason(route.reason)}
              {route.condition !== null ? (
                <>
                  {' '}
                  (<code>{route.condition}</code>)
                </>
              ) : null}
            </>
          )}
        </dd>
        {status !== null && typeof status !== 'string' && status.model !== null ? (
          <>
            <dt>Model</dt>
            <dd>{status.model}</dd>
          </>
        ) : null}
        {tokens.length > 0 ? (
          <>
            <dt>Tokens</dt>
            <dd>{tokens.map(([k, v]) => `${k.replace(/_tokens$/, '')} ${v}`).join(' · ')}</dd>
          </>
        ) : null}
        {status !== null && typeof status !== 'string' && status.costUsd !== null ? (
          <>
            <dt>Cost</dt>
            <dd>${status.costUsd.toFixed(4)}</dd>
          </>
        ) : null}
      </dl>
      {stage.failure_reason !== null ? (
        <div className="banner is-error" role="note">
          <strong>{stage.failure_class ?? 'failed'}</strong> <span>{stage.failure_reason}</span>
        </div>
      ) : null}
      {stage.waits.map((wait) => (
        <div key={wait.question_id} className="stage-wait">
          <strong>Asked:</strong> {wait.question} — <em>{wait.outcome}</em>
          {wait.answer !== null ? `: ${wait.answer}` : ''}
          {wait.duration_ms !== null ? ` after ${formatDuration(wait.duration_ms)}` : ''}
        </div>
      ))}
      {typeof status === 'string' ? <p className="banner is-error">status.json: {status}</p> : null}
      {status !== null && typeof status !== 'string' && status.filesTouched.length > 0 ? (
        <section>
          <h4>Files touched</h4>
          <ul className="stage-files">
            {status.filesTouched.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {status !== null && typeof status !== 'string' && Object.keys(status.contextUpdates).length > 0 ? (
        <section>
          <h4>Context updates</h4>
          <dl className="stage-context">
            {Object.entries(status.contextUpdates).map(([key, value]) => (
              <div key={key}>
                <dt>
                  <code>{key}</code>
                </dt>
                <dd>
                  <pre>{preview(value)}</pre>
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
    </div>
  );
}
