import type { RunEvent } from '../api/runEvent';

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
