import type { ApiError } from '../generated/ApiError';

/**
 * One event of a run, as `progress.jsonl` holds it and the event stream delivers it
 * (docs/events.md lists every event and its properties).
 */
export interface RunEvent {
  /** Unique id (a ULID). */
  id: string;
  /** When, RFC 3339 in UTC. */
  ts: string;
  run_id: string;
  /** Position in the run's stream, from 1, without gaps. */
  seq: number;
  /** The node it concerns; absent for run-level events. */
  node_id?: string;
  /** The event's name, such as `stage.completed`. */
  event: string;
  properties: Record<string, unknown>;
}

/** True when `value` has the envelope of a run event. */
export function isRunEvent(value: unknown): value is RunEvent {
  if (typeof value !== 'object' || value === null) return false;
  const seq: unknown = Reflect.get(value, 'seq');
  const event: unknown = Reflect.get(value, 'event');
  const runId: unknown = Reflect.get(value, 'run_id');
  return typeof seq === 'number' && typeof event === 'string' && typeof runId === 'string';
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
