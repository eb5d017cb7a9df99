import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import type { TimelineStage } from '../generated/TimelineStage';
import { ArtifactsView } from './artifacts/ArtifactsView';
import { CheckpointBrowser } from './checkpoints/CheckpointBrowser';
import { GateDock } from './GateDock';
import { LiveGraph } from './LiveGraph';
import { ResumeBudgetDialog } from './ResumeBudgetDialog';
import { RunHeader } from './RunHeader';
import { graphBudget, recordedBudget, stoppedByBudget } from './runBudget';
import { RunSidePanel } from './RunSidePanel';
import { notifyDesktop, runNotice, type RunNotice } from './runNotice';
import { progressOf, type NodeProgress, type RunProgress } from './runProgress';
import { checkpointAt, checkpointOfTimeline } from './scrubContext';
import { progressOfTimeline, progressOverHistory } from './timelineHistory';
import { nodesOfTimeline } from './timelineProgress';
import { ScrubNote } from './ScrubNote';
import { StageDetail } from './stage/StageDetail';
import { RunTimeline } from './timeline/RunTimeline';
import { useRunFollow } from './useRunFollow';
import { useGraphFirst } from './useGraphFirst';
import { useRunGraph } from './useRunGraph';
import './runs.css';

type View = 'overview' | 'checkpoints' | 'artifacts';

const NO_NODES: ReadonlyMap<string, NodeProgress> = new Map();

/** The latest visit of `node` in the timeline. */
function latestVisit(stages: readonly TimelineStage[], node: string): TimelineStage | null {
  let found: TimelineStage | null = null;
  for (const stage of stages) if (stage.node_id === node && (found === null || stage.visit >= found.visit)) found = stage;
  return found;
}

/**
 * One run: the live graph over the timeline (scrub it to see the run at any moment), the
 * selected stage's detail beside them (sharing the width, resizable), the checkpoint browser and the artifacts; the gate
 * dock when the run waits for a person.
 */
export function RunScreen({ runId, now, onBack, onOpenRun }: { runId: string; now: number; onBack: () => void; onOpenRun: (runId: string) => void }) {
  const api = useApi();
  const [followKey, setFollowKey] = useState(0);
  // The run's graph is read and drawn before its events are replayed (see useGraphFirst).
  const graph = useRunGraph(runId);
  const [view, setView] = useState<View>('overview');
  const graphFirst = useGraphFirst(view === 'overview', graph);
  const run = useRunFollow(api, runId, followKey, graphFirst.hold);
  const [selected, setSelected] = useState<{ node_id: string; visit: number } | null>(null);
  const [scrub, setScrub] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<RunNotice | null>(null);
  const [raisingBudget, setRaisingBudget] = useState(false);
  const lastProgress = useRef<RunProgress>(run.progress);

  const { record, timeline, progress, events, tailFrom } = run;
  // A long run's events are followed from its last one (`tailFrom`); its history is the
  // timeline's, with the tail's progress over it.
  const history = useMemo(() => (tailFrom > 0 && timeline !== null ? progressOfTimeline(timeline) : null), [tailFrom, timeline]);
  const liveProgress = useMemo(() => (history === null ? progress : progressOverHistory(history, progress)), [history, progress]);
  // `events` grows in place; each publish gives a new `progress`, so that is the signal.
  const budget = useMemo(
    () => (tailFrom > 0 && record !== null ? { max_cost_usd: record.max_cost_usd, max_tokens: record.max_tokens } : recordedBudget(events)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [events, progress, tailFrom, record],
  );
  // A notice goes away by itself after a while.
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), 8000);
    return () => clearTimeout(timer);
  }, [notice]);
  useEffect(() => {
    const found = record === null ? null : runNotice(record.workflow_name, lastProgress.current, progress, Date.now());
    lastProgress.current = progress;
    if (found !== null && progress.seq > 0) {
      setNotice(found);
      notifyDesktop(found);
    }
  }, [progress, record]);

  const runStart = timeline?.stages[0] !== undefined ? Date.parse(timeline.stages[0].started_at) : record !== null ? Date.parse(record.started_at) : 0;
  // Once per timeline (a long run's has thousands of stages), not once per progress.
  const timelineNodes = useMemo(() => nodesOfTimeline(timeline), [timeline]);
  // Scrubbed, the graph shows the events up to that moment alone.
  const shownProgress = useMemo(() => {
    if (scrub === null) return liveProgress;
    return tailFrom > 0 && timeline !== null ? progressOfTimeline(timeline, runStart + scrub) : progressOf(events, runStart + scrub);
  }, [scrub, liveProgress, events, runStart, tailFrom, timeline]);
  const shownTimelineNodes = scrub === null ? timelineNodes : NO_NODES;
  const scrubCheckpoint =
    scrub === null ? null : tailFrom > 0 && timeline !== null ? checkpointOfTimeline(timeline, runStart + scrub) : checkpointAt(events, runStart + scrub);

  const stages = timeline?.stages;
  const selectNode = useCallback(
    (node: string | null) => {
      const visit = node === null || stages === undefined ? null : latestVisit(stages, node);
      setSelected(visit === null ? null : { node_id: visit.node_id, visit: visit.visit });
    },
    [stages],
  );

  const stage = useMemo(() => {
    if (timeline === null || selected === null) return null;
    return timeline.stages.find((s) => s.node_id === selected.node_id && s.visit === selected.visit) ?? null;
  }, [timeline, selected]);

  const act = useCallback(
    (action: () => Promise<unknown>) => {
      setBusy(true);
      setActionError(null);
      action().then(
        () => {
          setBusy(false);
          setFollowKey((k) => k + 1);
        },
        (reason: unknown) => {
          setBusy(false);
          setActionError(toApiError(reason).message);
        },
      );
    },
    [],
  );

  if (run.error !== null && record === null) {
    return (
      <div className="run-screen">
        <div className="banner is-error" role="alert">
          <strong>Could not open run {runId}</strong> <span>{run.error.message}</span>
        </div>
        <button type="button" className="button" onClick={onBack}>
          Back to the runs
        </button>
      </div>
    );
  }
  if (record === null || timeline === null) {
    return (
      <div className="canvas-message" role="status">
        <span className="spinner" aria-hidden="true" /> Opening run {runId}…
      </div>
    );
  }
  const waiting = [...liveProgress.nodes.values()].some((n) => n.status === 'waiting');
  return (
    <div className="run-screen" data-testid="run-screen" data-run-id={runId} data-events={run.ended ? 'ended' : 'following'}>
      <RunHeader
        record={record}
        now={now}
        busy={busy}
        onBack={onBack}
        onCancel={() => act(() => api.cancelRun({ run_id: runId }))}
        budget={budget}
        onResume={() =>
          // Stopped by its budget, it would stop again at once: the person raises it first.
          stoppedByBudget(record.failure_reason)
            ? setRaisingBudget(true)
            : act(() => api.resumeRun({ run_id: runId, max_cost_usd: null, max_tokens: null }))
        }
      />
      {raisingBudget ? (
        <ResumeBudgetDialog
          runId={runId}
          stoppedUnder={budget}
          graphBudget={graph.state === 'ready' ? graphBudget(graph.value.workflow?.attrs ?? []) : { max_cost_usd: null, max_tokens: null }}
          onResumed={() => setFollowKey((k) => k + 1)}
          onClose={() => setRaisingBudget(false)}
        />
      ) : null}
      {run.error !== null ? (
        <div className="banner is-error" role="alert" data-testid="follow-error">
          <strong>Stopped following the run</strong> <span>{run.error.message}</span>
          <button type="button" className="button is-small" onClick={() => setFollowKey((k) => k + 1)}>
            Retry
          </button>
        </div>
      ) : null}
      {actionError !== null ? (
        <div className="banner is-error" role="alert">
          {actionError}
        </div>
      ) : null}
      {notice !== null ? (
        <div className="toast banner is-info run-notice" role="status" data-testid="run-notice">
          <strong>{notice.title}</strong>
          <button type="button" className="button is-small" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      <nav className="run-tabs" role="tablist" aria-label="Run views">
        {(['overview', 'checkpoints', 'artifacts'] as const).map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className={view === v ? 'is-active' : ''} onClick={() => setView(v)}>
            {v === 'overview' ? 'Graph & timeline' : v === 'checkpoints' ? 'Checkpoints' : `Artifacts${record.artifact_count > 0 ? ` (${record.artifact_count})` : ''}`}
          </button>
        ))}
      </nav>
      <div className="run-body">
        <div className="run-main">
          {view === 'overview' ? (
            <div className="run-overview">
              <div className="run-overview__graph">
                <LiveGraph
                  graph={graph}
                  onDrawn={graphFirst.onDrawn}
                  progress={shownProgress}
                  timelineNodes={shownTimelineNodes}
                  selectedNode={selected?.node_id ?? null}
                  onSelectNode={selectNode}
                />
                {scrub !== null ? (
                  <ScrubNote runId={runId} atMs={scrub} checkpoint={scrubCheckpoint} onBack={() => setScrub(null)} />
                ) : null}
              </div>
              <div className="run-overview__timeline">
                <RunTimeline timeline={timeline} now={now} selected={selected} onSelect={(s) => setSelected({ node_id: s.node_id, visit: s.visit })} scrubTime={scrub} onScrub={setScrub} />
              </div>
            </div>
          ) : null}
          {view === 'checkpoints' ? (
            <CheckpointBrowser
              runId={runId}
              runStatus={record.status}
              refreshKey={run.checkpointVersion}
              onRunStarted={(started) => {
                // Resumed: follow this run's new events; forked: show the new run.
                if (started === runId) setFollowKey((k) => k + 1);
                else onOpenRun(started);
              }}
              onRolledBack={() => {
                setFollowKey((k) => k + 1);
              }}
              onRaiseBudget={stoppedByBudget(record.failure_reason) ? () => setRaisingBudget(true) : undefined}
            />
          ) : null}
          {view === 'artifacts' ? <ArtifactsView runId={runId} refreshKey={run.artifactVersion} initialStage={null} /> : null}
        </div>
        {stage !== null ? (
          <RunSidePanel>
            <StageDetail
              runId={runId}
              stage={stage}
              events={events}
              transcripts={run.transcripts}
              transcriptVersion={run.transcriptVersion}
              fileVersion={run.shapeVersion}
              tailFrom={tailFrom}
              onClose={() => setSelected(null)}
            />
          </RunSidePanel>
        ) : null}
      </div>
      <GateDock runId={runId} waiting={waiting} onAnswered={() => run.refresh()} />
    </div>
  );
}
