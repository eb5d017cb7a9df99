import type { RunEvent } from '../api/runEvent';
import type { Timeline } from '../generated/Timeline';

/** The checkpoint a run had saved by a moment: after which node, and its commit. */
export type CheckpointMoment = { node: string; sha: string | null; seq: number };

/** The last `checkpoint.saved` at or before `atMs` (epoch ms), if any. */
export function checkpointAt(events: readonly RunEvent[], atMs: number): CheckpointMoment | null {
  let found: CheckpointMoment | null = null;
  for (const event of events) {
    if (Date.parse(event.ts) > atMs) break;
    if (event.event !== 'checkpoint.saved') continue;
    found = { node: event.node_id ?? '?', sha: event.properties.git_commit_sha, seq: event.seq };
  }
  return found;
}

/**
 * For a long run whose events are not held (see LONG_HISTORY_EVENTS): the checkpoint saved
 * after the last stage that had ended by `atMs` (the engine saves one after every stage), as
 * the timeline tells it; its commit is not in the timeline (`sha` null).
 */
export function checkpointOfTimeline(timeline: Timeline, atMs: number): CheckpointMoment | null {
  let found: CheckpointMoment | null = null;
  for (const stage of timeline.stages) {
    if (Date.parse(stage.started_at) > atMs) break;
    if (stage.ended_at !== null && Date.parse(stage.ended_at) <= atMs) found = { node: stage.node_id, sha: null, seq: 0 };
  }
  return found;
}
