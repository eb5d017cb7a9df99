import { useCallback, useEffect, useRef, useState } from 'react';
import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import type { RunEvent } from '../api/runEvent';
import type { ApiError } from '../generated/ApiError';
import type { RunRecord } from '../generated/RunRecord';
import type { Timeline } from '../generated/Timeline';
import { RunProgressBuilder, type RunProgress } from './runProgress';
import { TranscriptBuilder } from './transcript';

/** Events that change the timeline or the run's record (the rest is output). */
const SHAPE_EVENTS = /^(run\.|stage\.|interview\.|parallel\.|checkpoint\.saved)/;
/** Live output: folded into transcripts, not kept in `events` (the logs hold it all). */
const OUTPUT_EVENTS = /^(command\.output|agent\.text|agent\.tool_call\.)/;
/** Events after which the run may have new captured artifacts. */
const ARTIFACT_EVENTS = /^(artifact\.captured|stage\.completed|stage\.failed)$/;
/** The timeline and record are fetched again at most this often while events arrive. */
const REFRESH_MS = 1000;
/** Progress is handed to the screen at most this often (events are applied as they come). */
const PUBLISH_MS = 150;

/** A run followed live: its record, timeline, every event, progress and transcripts. */
export type FollowedRun = {
  record: RunRecord | null;
  timeline: Timeline | null;
  progress: RunProgress;
  /**
   * Every event so far but live output, in `seq` order. It grows in place (copying it on
   * every frame would cost more the longer the run), so it is not a change signal: each
   * publish gives a new `progress`. Do not mutate.
   */
  events: readonly RunEvent[];
  transcripts: TranscriptBuilder;
  /** Changes whenever a transcript changed (a render key). */
  transcriptVersion: number;
  /** Changes whenever the timeline or the record may have changed. */
  shapeVersion: number;
  /** Changes when a checkpoint was saved (and when the run is followed afresh). */
  checkpointVersion: number;
  /** Changes when the run may have captured new artifacts. */
  artifactVersion: number;
  ended: boolean;
  error: ApiError | null;
  /** Fetch record and timeline again now (after a rollback or resume). */
  refresh(): void;
};

/**
 * Follows a run: loads its record and timeline, then streams its events, applying them in
 * batches (once per animation frame; on a timer while the page is hidden, where frames
 * stop, so notifications still fire), publishing progress at most every PUBLISH_MS. While
 * `holdEvents` is true only the record and timeline are loaded.
 */
export function useRunFollow(api: Api, runId: string, followKey: number, holdEvents = false): FollowedRun {
  const [record, setRecord] = useState<RunRecord | null>(null);
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  const [progress, setProgress] = useState<RunProgress>(() => new RunProgressBuilder().snapshot());
  const [transcriptVersion, setTranscriptVersion] = useState(0);
  const [shapeVersion, setShapeVersion] = useState(0);
  const [checkpointVersion, setCheckpointVersion] = useState(0);
  const [artifactVersion, setArtifactVersion] = useState(0);
  const [ended, setEnded] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const events = useRef<RunEvent[]>([]);
  const transcripts = useRef(new TranscriptBuilder());
  const loadSeq = useRef(0);

  const load = useCallback(() => {
    const mine = ++loadSeq.current;
    Promise.all([api.getRun({ run_id: runId }), api.runTimeline({ run_id: runId })]).then(
      ([nextRecord, nextTimeline]) => {
        if (mine !== loadSeq.current) return;
        setError(null);
        setRecord(nextRecord);
        setTimeline(nextTimeline);
        setShapeVersion((v) => v + 1);
      },
      (reason: unknown) => {
        if (mine === loadSeq.current) setError(toApiError(reason));
      },
    );
  }, [api, runId]);

  // Record and timeline load once per follow; releasing held events does not load them again.
  useEffect(() => {
    setError(null);
    load();
  }, [load, followKey]);

  useEffect(() => {
    events.current = [];
    transcripts.current = new TranscriptBuilder();
    const builder = new RunProgressBuilder();
    setProgress(builder.snapshot());
    setEnded(false);
    // Held back, the events start once the caller is ready: thousands of them arrive as as many
    // tasks, and a response due meanwhile (the run's graph) would wait behind them all.
    if (holdEvents) return;
    let pending: RunEvent[] = [];
    // The pending flush: an animation frame, or a timer while the page is hidden.
    let scheduled: (() => void) | null = null;
    const cancelFlush = () => {
      scheduled?.();
      scheduled = null;
    };
    const scheduleFlush = () => {
      if (scheduled !== null) return;
      if (document.hidden) {
        const timer = setTimeout(runFlush, 100);
        scheduled = () => clearTimeout(timer);
      } else {
        const frame = requestAnimationFrame(runFlush);
        scheduled = () => cancelAnimationFrame(frame);
      }
    };
    let lastRefresh = 0;
    let refreshTimer: ReturnType<typeof setTimeout> | null = null;
    const scheduleRefresh = () => {
      if (refreshTimer !== null) return;
      const wait = Math.max(0, lastRefresh + REFRESH_MS - Date.now());
      refreshTimer = setTimeout(() => {
        refreshTimer = null;
        lastRefresh = Date.now();
        load();
      }, wait);
    };
    let lastPublish = 0;
    let outputChanged = false;
    let checkpointSaved = false;
    let artifactsChanged = false;
    setCheckpointVersion((v) => v + 1);
    setArtifactVersion((v) => v + 1);
    const publish = () => {
      lastPublish = performance.now();
      setProgress(builder.snapshot());
      if (outputChanged) setTranscriptVersion((v) => v + 1);
      if (checkpointSaved) setCheckpointVersion((v) => v + 1);
      if (artifactsChanged) setArtifactVersion((v) => v + 1);
      outputChanged = false;
      checkpointSaved = false;
      artifactsChanged = false;
    };
    const runFlush = () => {
      scheduled = null;
      flush();
    };
    const flush = () => {
      if (pending.length > 0) {
        const batch = pending;
        pending = [];
        let shape = false;
        for (const event of batch) {
          builder.apply(event);
          if (transcripts.current.apply(event) !== null) outputChanged = true;
          if (SHAPE_EVENTS.test(event.event)) shape = true;
          if (event.event === 'checkpoint.saved') checkpointSaved = true;
          if (ARTIFACT_EVENTS.test(event.event)) artifactsChanged = true;
          if (!OUTPUT_EVENTS.test(event.event)) events.current.push(event);
        }
        if (shape) scheduleRefresh();
      }
      // A fast run costs one render every PUBLISH_MS, not one per frame.
      if (performance.now() - lastPublish >= PUBLISH_MS) publish();
      else scheduleFlush();
    };
    const unsubscribe = api.followEvents(
      { run_id: runId, after_seq: 0 },
      {
        onEvent(event) {
          pending.push(event);
          scheduleFlush();
        },
        onEnd() {
          cancelFlush();
          flush();
          publish();
          setEnded(true);
          load();
        },
        onError(failure) {
          setError(failure);
        },
      },
    );
    return () => {
      unsubscribe();
      cancelFlush();
      if (refreshTimer !== null) clearTimeout(refreshTimer);
    };
  }, [api, runId, load, followKey, holdEvents]);

  return {
    record,
    timeline,
    progress,
    events: events.current,
    transcripts: transcripts.current,
    transcriptVersion,
    shapeVersion,
    checkpointVersion,
    artifactVersion,
    ended,
    error,
    refresh: load,
  };
}
