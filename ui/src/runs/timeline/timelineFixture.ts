import type { HumanWait } from '../../generated/HumanWait';
import type { Timeline } from '../../generated/Timeline';
import type { TimelineStage } from '../../generated/TimelineStage';

/** When fixture runs start (ms since the epoch). */
export const RUN_START = Date.parse('2025-03-01T10:00:00.000Z');

/** The RFC 3339 time `ms` after the fixture run's start. */
export function at(ms: number): string {
  return new Date(RUN_START + ms).toISOString();
}

/** A finished stage visit from `startMs` to `endMs` (after the run's start); null end = still open. */
export function stage(
  node_id: string,
  startMs: number,
  endMs: number | null,
  overrides: Partial<TimelineStage> = {},
): TimelineStage {
  const visit = overrides.visit ?? 1;
  return {
    node_id,
    visit,
    kind: 'command',
    branch: null,
    status: endMs === null ? 'running' : 'success',
    attempts: 1,
    retries: 0,
    started_at: at(startMs),
    ended_at: endMs === null ? null : at(endMs),
    duration_ms: endMs === null ? null : endMs - startMs,
    notes: null,
    failure_reason: null,
    failure_class: null,
    last_retry_reason: null,
    stage_dir: visit > 1 ? `nodes/${node_id}-visit_${visit}` : `nodes/${node_id}`,
    waits: [],
    ...overrides,
  };
}

/** A human wait from `startMs` to `endMs` (null = not answered yet). */
export function wait(node_id: string, startMs: number, endMs: number | null): HumanWait {
  return {
    question_id: `${node_id}-q`,
    node_id,
    visit: 1,
    question: 'Ship it?',
    choices: ['yes', 'no'],
    started_at: at(startMs),
    ended_at: endMs === null ? null : at(endMs),
    duration_ms: endMs === null ? null : endMs - startMs,
    outcome: endMs === null ? 'waiting' : 'answered',
    answer: endMs === null ? null : 'yes',
  };
}

/** A timeline of the given stages; lanes are taken from their branches unless given. */
export function timeline(stages: TimelineStage[], overrides: Partial<Timeline> = {}): Timeline {
  const lanes: string[] = [];
  for (const s of stages) if (s.branch !== null && !lanes.includes(s.branch)) lanes.push(s.branch);
  return { run_id: 'run-1', status: 'success', stages, lanes, ...overrides };
}
