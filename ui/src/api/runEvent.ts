import type { ApiError } from '../generated/ApiError';
import type { RunEvent } from '../generated/RunEvent';
import { RUN_EVENT_NAMES } from '../generated/runEventNames';

/**
 * One event of a run, as `progress.jsonl` holds it and the event stream delivers it: the
 * envelope (`id`, `ts`, `run_id`, `seq`, `node_id`) and a union tagged by `event` whose
 * `properties` are typed per event. Generated from heddle-engine's `Envelope`; switch on
 * `event.event` to read the properties.
 */
export type { RunEvent };

/** An event's name, such as `stage.completed`. */
export type RunEventName = RunEvent['event'];

/** The event named `N`. */
export type RunEventOf<N extends RunEventName> = Extract<RunEvent, { event: N }>;

/** The properties of the event named `N`. */
export type RunEventProperties<N extends RunEventName> = RunEventOf<N>['properties'];

const NAMES: ReadonlySet<string> = new Set(RUN_EVENT_NAMES);

/**
 * True when `value` has the envelope of a run event with a name this version knows (the
 * server sends only those; the properties are the engine's, as the generated type says).
 */
export function isRunEvent(value: unknown): value is RunEvent {
  if (typeof value !== 'object' || value === null) return false;
  const seq: unknown = Reflect.get(value, 'seq');
  const event: unknown = Reflect.get(value, 'event');
  const runId: unknown = Reflect.get(value, 'run_id');
  const properties: unknown = Reflect.get(value, 'properties');
  return (
    typeof seq === 'number' &&
    typeof event === 'string' &&
    NAMES.has(event) &&
    typeof runId === 'string' &&
    typeof properties === 'object' &&
    properties !== null
  );
}

/** What to do with a followed run's events. */
export interface EventHandlers {
  onEvent(event: RunEvent): void;
  /** The run ended and every event was delivered. */
  onEnd?(): void;
  /** The events could not be read (the stream stops). */
  onError?(error: ApiError): void;
}

/** Stops delivering a run's events. */
export type Unsubscribe = () => void;
