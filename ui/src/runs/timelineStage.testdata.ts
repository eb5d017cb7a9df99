import type { TimelineStage } from '../generated/TimelineStage';

/**
 * A complete timeline stage for tests: a command stage, run once, not yet ended, with the
 * given node, visit and status; `fields` override the rest. Typed by the generated
 * `TimelineStage`, so a renamed or added field fails to compile here.
 */
export function timelineStage(
  node_id: string,
  visit: number,
  status: TimelineStage['status'],
  fields: Partial<TimelineStage> = {},
): TimelineStage {
  return {
    node_id,
    visit,
    kind: 'command',
    branch: null,
    status,
    attempts: 1,
    retries: 0,
    started_at: '2026-11-23T01:00:00Z',
    ended_at: null,
    duration_ms: null,
    notes: null,
    failure_reason: null,
    failure_class: null,
    last_retry_reason: null,
    stage_dir: `nodes/${node_id}`,
    waits: [],
    ...fields,
  };
}
