import type { RunEvent } from '../api/runEvent';

/** Builds run events with consecutive `seq` and timestamps one second apart, for tests. */
export function eventStream(start = Date.UTC(2026, 0, 1, 12, 0, 0)) {
  const events: RunEvent[] = [];
  const add = (event: string, node: string | undefined, properties: Record<string, unknown> = {}): RunEvent => {
    const seq = events.length + 1;
    const made: RunEvent = {
      id: `E${String(seq).padStart(5, '0')}`,
      ts: new Date(start + seq * 1000).toISOString(),
      run_id: 'R1',
      seq,
      event,
      properties,
      ...(node === undefined ? {} : { node_id: node }),
    };
    events.push(made);
    return made;
  };
  return { events, add };
}
