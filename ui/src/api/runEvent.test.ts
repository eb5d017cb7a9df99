import { describe, expect, it } from 'vitest';
import { isRunEvent } from './runEvent';

describe('isRunEvent', () => {
  const envelope = { id: 'E1', ts: '2026-01-01T00:00:00Z', run_id: 'R1', seq: 1 };

  it('accepts an event the generated union names', () => {
    expect(isRunEvent({ ...envelope, event: 'stage.started', properties: { kind: 'command', visit: 1, attempt: 1 } })).toBe(true);
  });

  it('rejects a name the engine does not declare, or an envelope without properties', () => {
    expect(isRunEvent({ ...envelope, event: 'stage.paused', properties: {} })).toBe(false);
    expect(isRunEvent({ ...envelope, event: 'stage.started' })).toBe(false);
    expect(isRunEvent(null)).toBe(false);
  });
});
