import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import type { RunEvent } from '../api/runEvent';
import type { ApiError } from '../generated/ApiError';
import type { RunRecord } from '../generated/RunRecord';
import type { Timeline } from '../generated/Timeline';
import { type RunOpening, readRunOpening, takeRunOpening } from './runOpeningRead';
import { RunProgressBuilder, type RunProgress } from './runProgress';
import { LONG_HISTORY_EVENTS } from './timelineHistory';
import { TranscriptBuilder } from './transcript';

/** The timeline and record are fetched again at most this often while events arrive. */
export const REFRESH_MS = 1000;
/** Progress is handed out at most this often (events are applied as they come). */
export const PUBLISH_MS = 150;
/** While the page is hidden (no animation frames), pending events are applied after this. */
export const HIDDEN_FLUSH_MS = 100;
/**
 * How long one frame may spend applying events; the rest wait for the next frame, so
 * replaying a long run's 100,000 events never blocks a click for long.
 */
export const APPLY_BUDGET_MS = 8;

/** What one event means for the screen besides progress. */
type EventEffect = {
  /** The timeline or the run's record may have changed. */
  shape: boolean;
  /** Live output: folded into transcripts, not kept in `events` (the logs hold it all). */
  output: boolean;
  checkpoint: boolean;
  /** The run may have captured new artifacts. */
  artifacts: boolean;
};

const NONE: EventEffect = { shape: false, output: false, checkpoint: false, artifacts: false };
const SHAPE: EventEffect = { ...NONE, shape: true };
const OUTPUT: EventEffect = { ...NONE, output: true };

/** What `event` changes; exhaustive over the generated union, so a new event must be placed. */
export function effectOf(event: RunEvent): EventEffect {
  switch (event.event) {
    case 'run.started':
    case 'run.completed':
    case 'run.failed':
    case 'run.cancelled':
    case 'run.rolled_back':
    case 'run.recovered':
    case 'run.ended_without_edge':
    case 'stage.started':
    case 'stage.retrying':
    case 'interview.started':
    case 'interview.answered':
    case 'interview.timed_out':
    case 'parallel.branch.started':
    case 'parallel.branch.completed':
      return SHAPE;
    case 'stage.completed':
    case 'stage.failed':
      return { ...SHAPE, artifacts: true };
    case 'checkpoint.saved':
      return { ...SHAPE, checkpoint: true };
    case 'artifact.captured':
      return { ...NONE, artifacts: true };
    case 'command.output':
    case 'agent.text':
    case 'agent.tool_call.started':
    case 'agent.tool_call.completed':
      return OUTPUT;
    case 'edge.selected':
    case 'goal_gate.checked':
    case 'agent.usage':
    case 'agent.note':
    case 'run.budget_exceeded': // the checkpoint and run.cancelled after it carry the change
    case 'loop.restarted':
    case 'manager.cycle':
    case 'warning':
      return NONE;
    default: {
      const unplaced: never = event;
      return unplaced;
    }
  }
}

/** How the follower waits: a clock, timers and animation frames (the browser's, or fakes). */
export interface FollowTimers {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Runs `run` after `ms`; returns what cancels it. */
  after(ms: number, run: () => void): () => void;
  /** Runs `run` at the next animation frame, or after HIDDEN_FLUSH_MS while the page is hidden. */
  nextFrame(run: () => void): () => void;
}

/** The browser's timers. */
export const browserTimers: FollowTimers = {
  now: () => performance.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  nextFrame(run) {
    if (document.hidden) return browserTimers.after(HIDDEN_FLUSH_MS, run);
    const frame = requestAnimationFrame(run);
    return () => cancelAnimationFrame(frame);
  },
};

/** The part of the API a follower reads. */
export type FollowApi = Pick<Api, 'getRun' | 'runTimeline' | 'followEvents'>;

/** What the screen shows of a followed run; a new object whenever something changed. */
export type FollowState = {
  record: RunRecord | null;
  timeline: Timeline | null;
  progress: RunProgress;
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
  /**
   * Events up to this seq are not held (0: every event is): a long run's history, which the
   * screen reads from its timeline and, for one stage, a page of events (see
   * LONG_HISTORY_EVENTS); only the events after it are followed.
   */
  tailFrom: number;
};

/** The state before anything was loaded. */
export function initialFollowState(): FollowState {
  return {
    record: null,
    timeline: null,
    progress: new RunProgressBuilder().snapshot(),
    transcriptVersion: 0,
    shapeVersion: 0,
    checkpointVersion: 0,
    artifactVersion: 0,
    ended: false,
    error: null,
    tailFrom: 0,
  };
}

/** Where a run's events are followed from: its last one when its record counts more than LONG_HISTORY_EVENTS, else the start. */
function tailOf(record: RunRecord): number {
  return record.event_count > LONG_HISTORY_EVENTS ? record.last_seq : 0;
}

/**
 * Follows one run, without React: loads its record and timeline, streams its events and
 * applies them in batches (one per frame), hands out state at most every PUBLISH_MS, and
 * loads the record and timeline again at most every REFRESH_MS while events change them.
 * Events the loaded record already counts (`last_seq`) are in the loaded timeline too, so
 * replaying a long run's history asks for no reload (a 20,000-stage timeline is megabytes).
 */
export class RunFollower {
  private state: FollowState = initialFollowState();
  private eventList: RunEvent[] = [];
  private transcriptBuilder = new TranscriptBuilder();
  private progress = new RunProgressBuilder();
  /** Events received but not applied yet: those from `pendingStart` on. */
  private pending: RunEvent[] = [];
  private pendingStart = 0;
  private cancelFlush: (() => void) | null = null;
  private cancelRefresh: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastRefresh = Number.NEGATIVE_INFINITY;
  private lastPublish = Number.NEGATIVE_INFINITY;
  private outputChanged = false;
  private checkpointSaved = false;
  private artifactsChanged = false;
  /** Counts loads, so an answer to an older one is dropped. */
  private loads = 0;
  /** The last event the loaded record and timeline cover. */
  private coveredSeq = 0;
  /** Whether the loaded record is of a run that has stopped (its timeline will not grow). */
  private coveredSettled = false;
  /** Whether a replayed event the load covered would have changed the shape. */
  private coveredShape = false;
  /** Whether events are followed (since `follow`, until the next `reset`): `tailFrom` then stays what they were asked from. */
  private following = false;
  /** The last event applied. */
  private appliedSeq = 0;

  constructor(
    private readonly api: FollowApi,
    private readonly runId: string,
    private readonly timers: FollowTimers,
    private readonly onChange: (state: FollowState) => void,
  ) {}

  /** The state now. */
  current(): FollowState {
    return this.state;
  }

  /**
   * Every event after `tailFrom` but live output, in `seq` order. It grows in place (copying it on
   * every publish would cost more the longer the run), so it is not a change signal: each
   * publish gives a new `progress`. Do not mutate.
   */
  get events(): readonly RunEvent[] {
    return this.eventList;
  }

  /** Each stage visit's live output. */
  get transcripts(): TranscriptBuilder {
    return this.transcriptBuilder;
  }

  /** Loads the record and timeline (again); an older load still under way is ignored. */
  readonly load = (): void => {
    const mine = ++this.loads;
    // The first load takes over the read the app started when it opened on this run.
    const read = takeRunOpening(this.api, this.runId) ?? readRunOpening(this.api, this.runId);
    read.then(
      ([record, timeline]: RunOpening) => {
        if (mine !== this.loads) return;
        this.coveredSeq = record.last_seq;
        this.coveredSettled = record.status !== 'running';
        // Known before the events are followed, so the screen reads a long run's history from
        // this timeline as it first draws it rather than drawing it again once they start.
        // While they are followed it stays what the stream was asked from.
        const tailFrom = this.following ? this.state.tailFrom : tailOf(record);
        this.set({ error: null, record, timeline, tailFrom, shapeVersion: this.state.shapeVersion + 1 });
      },
      (reason: unknown) => {
        if (mine === this.loads) this.set({ error: toApiError(reason) });
      },
    );
  };

  /** Forgets the events (while they are held back, or before following afresh). */
  reset(): void {
    this.stop();
    this.eventList = [];
    this.transcriptBuilder = new TranscriptBuilder();
    this.progress = new RunProgressBuilder();
    this.appliedSeq = 0;
    this.coveredShape = false;
    this.following = false;
    this.set({ progress: this.progress.snapshot(), ended: false });
  }

  /**
   * Streams the run's events (after a reset): from the start, or, for a run whose loaded
   * record counts more than LONG_HISTORY_EVENTS, from its last one (`tailFrom`).
   */
  follow(): void {
    this.reset();
    const record = this.state.record;
    const tailFrom = record === null ? 0 : tailOf(record);
    this.set({ checkpointVersion: this.state.checkpointVersion + 1, artifactVersion: this.state.artifactVersion + 1, tailFrom });
    this.following = true;
    this.unsubscribe = this.api.followEvents(
      { run_id: this.runId, after_seq: tailFrom },
      {
        onEvent: (event) => {
          this.pending.push(event);
          this.scheduleFlush();
        },
        onEnd: () => {
          this.cancelFlush?.();
          this.cancelFlush = null;
          this.apply();
          this.publish({ ended: true });
          // The load below covers a refresh the last events asked for; a stopped run whose
          // every event the last load covered needs none.
          this.cancelRefresh?.();
          this.cancelRefresh = null;
          const covered = this.state.record !== null && this.coveredSettled && this.appliedSeq <= this.coveredSeq;
          if (!covered) this.load();
        },
        onError: (error) => this.set({ error }),
      },
    );
  }

  /** Stops streaming and cancels every timer; later answers to loads are ignored. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.cancelFlush?.();
    this.cancelFlush = null;
    this.cancelRefresh?.();
    this.cancelRefresh = null;
    this.pending = [];
    this.pendingStart = 0;
  }

  /** Stops and ignores any load still under way. */
  dispose(): void {
    this.stop();
    this.loads += 1;
  }

  private set(change: Partial<FollowState>): void {
    this.state = { ...this.state, ...change };
    this.onChange(this.state);
  }

  private scheduleFlush(): void {
    if (this.cancelFlush !== null) return;
    this.cancelFlush = this.timers.nextFrame(() => {
      this.cancelFlush = null;
      this.flush();
    });
  }

  private flush(): void {
    this.apply(this.timers.now() + APPLY_BUDGET_MS);
    // A fast run costs one render every PUBLISH_MS, not one per frame.
    const more = this.pending.length > 0;
    if (this.timers.now() - this.lastPublish >= PUBLISH_MS) {
      this.publish({});
      if (more) this.scheduleFlush();
    } else {
      this.scheduleFlush();
    }
  }

  /** Applies the pending events, or as many as fit before `deadline` (on the timers' clock). */
  private apply(deadline = Infinity): void {
    const batch = this.pending;
    let shape = false;
    let i = this.pendingStart;
    for (; i < batch.length; i += 1) {
      // The clock is read every 256 events: reading it costs more than applying one.
      if ((i & 255) === 255 && this.timers.now() >= deadline) break;
      const event = batch[i];
      if (event === undefined) continue;
      this.progress.apply(event);
      if (this.transcriptBuilder.apply(event) !== null) this.outputChanged = true;
      const effect = effectOf(event);
      if (effect.shape) {
        if (event.seq > this.coveredSeq) shape = true;
        else this.coveredShape = true;
      }
      this.checkpointSaved ||= effect.checkpoint;
      this.artifactsChanged ||= effect.artifacts;
      this.appliedSeq = Math.max(this.appliedSeq, event.seq);
      if (!effect.output) this.eventList.push(event);
    }
    // What is left stays where it is (events arriving meanwhile are appended after it).
    if (i >= batch.length) {
      this.pending = [];
      this.pendingStart = 0;
    } else {
      this.pendingStart = i;
    }
    // A running run's record and timeline may have been read a moment apart: once its history
    // is replayed, one reload makes sure the timeline holds all of it.
    if (this.coveredShape && !this.coveredSettled && this.appliedSeq >= this.coveredSeq) {
      this.coveredShape = false;
      shape = true;
    }
    if (shape) this.scheduleRefresh();
  }

  private publish(extra: Partial<FollowState>): void {
    this.lastPublish = this.timers.now();
    const s = this.state;
    this.set({
      progress: this.progress.snapshot(),
      transcriptVersion: s.transcriptVersion + (this.outputChanged ? 1 : 0),
      checkpointVersion: s.checkpointVersion + (this.checkpointSaved ? 1 : 0),
      artifactVersion: s.artifactVersion + (this.artifactsChanged ? 1 : 0),
      ...extra,
    });
    this.outputChanged = false;
    this.checkpointSaved = false;
    this.artifactsChanged = false;
  }

  private scheduleRefresh(): void {
    if (this.cancelRefresh !== null) return;
    const wait = Math.max(0, this.lastRefresh + REFRESH_MS - this.timers.now());
    this.cancelRefresh = this.timers.after(wait, () => {
      this.cancelRefresh = null;
      this.lastRefresh = this.timers.now();
      this.load();
    });
  }
}
