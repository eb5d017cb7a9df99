import { describe, expect, it } from 'vitest';
import { checkpointAt } from './scrubContext';
import { eventStream } from './runEvents.testdata';

describe('checkpoint at a moment', () => {
  it('is the last one saved by then', () => {
    const { events, add } = eventStream();
    add('stage.started', 'a', {});
    const first = add('checkpoint.saved', 'a', { git_commit_sha: 'aaa', next_node_id: 'b' });
    add('stage.started', 'b', {});
    const second = add('checkpoint.saved', 'b', { git_commit_sha: null });
    expect(checkpointAt(events, Date.parse(events[0]!.ts))).toBeNull();
    expect(checkpointAt(events, Date.parse(first.ts))).toEqual({ node: 'a', sha: 'aaa', seq: first.seq });
    expect(checkpointAt(events, Date.parse(second.ts) + 10)).toEqual({ node: 'b', sha: null, seq: second.seq });
  });
});
